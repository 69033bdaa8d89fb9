# The job (totals_job.py) sits beside the tests' folder.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
