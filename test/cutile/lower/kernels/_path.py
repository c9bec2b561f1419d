"""Makes test/cutile/kernels/constraints.py importable from here."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels"))
