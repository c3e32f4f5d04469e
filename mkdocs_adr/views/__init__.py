"""Derived views of a log: INDEX, CURRENT state, graphs. Pure renderers."""
