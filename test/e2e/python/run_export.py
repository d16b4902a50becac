"""Runs a program written by notify-export (its __main__.py, the settings' `program`) as the inline
program of a stack, with the settings of driver.py on stdin (plus projectName):

    python run_export.py <up|up-refresh|preview|preview-refresh|destroy>

Used by test/e2e/exportLanguages.test.ts; the exported file runs as it is.
"""

import os
import runpy
import sys

import driver


def program(settings):
    # The program's directory first on sys.path, as Pulumi's Python runtime has it when it runs the
    # project directory: __main__.py imports the declarations module beside it.
    sys.path.insert(0, os.path.dirname(os.path.abspath(settings["program"])))
    return lambda: runpy.run_path(settings["program"])


if __name__ == "__main__":
    driver.run(program)
