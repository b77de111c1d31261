"""python -m reference_model.poseidon: see cli.py."""
import sys

from .cli import main

sys.exit(main())
