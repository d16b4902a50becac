"""Runs a Python example project (examples/<name>/__main__.py, its `program()`) as an inline
program, for test/e2e/twoEnvironments.test.ts:

    python run_example.py <up|up-refresh|preview|preview-refresh|destroy>

with the settings of driver.py on stdin, plus example: the example's directory, and projectName.
"""

import importlib.util
import os

import driver


def load(settings: dict):
    path = os.path.join(settings["example"], "__main__.py")
    spec = importlib.util.spec_from_file_location("notify_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.program


if __name__ == "__main__":
    driver.run(load)
