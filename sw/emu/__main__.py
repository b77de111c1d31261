"""python -m zkemu build|run|with TOP ...: see zkemu.card."""
from zkemu.card import main

main()
