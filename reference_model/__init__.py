"""zkspinal golden models: the specification every hardware core is checked against."""
