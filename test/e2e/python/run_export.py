"""Runs a program written by notify-export (its __main__.py, the settings' `program`) as the inline
program of a stack, with the settings of driver.py on stdin (plus projectName):

    python run_export.py <up|up-refresh|preview|preview-refresh|destroy>

Used by test/e2e/exportLanguages.test.ts; the exported file runs as it is.
"""

import runpy

import driver

if __name__ == "__main__":
    driver.run(lambda settings: lambda: runpy.run_path(settings["program"]))
