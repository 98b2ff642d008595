"""Example games played through the movewire relay."""
