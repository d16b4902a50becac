# coding=utf-8
# *** Written by hand: scripts/gen-sdk/python/_interrupt.py, added to the package by gen-sdk. ***

"""How a program run by the Pulumi Python language host ends when the engine interrupts it.

When a resource fails, the engine ends the update without answering the program's pending
registrations, then cancels and closes the language host, which sends the program SIGINT (once
on the cancel, once more to its process group on the close). The host's
`pulumi-language-python-exec` catches `Exception` but not `KeyboardInterrupt`: Python printed
a `KeyboardInterrupt` traceback (two, chained) under the real error, and then hung in the
executor's shutdown on the worker thread still waiting for the engine, until the engine killed
it 5 seconds later. The same happens on Ctrl-C. docs/troubleshooting.md says where each step is.

In such a process, and only there, this module makes SIGINT end the program at once, as
Python's own exit after an unhandled `KeyboardInterrupt` does (the process ends by SIGINT, the
status the host sees unchanged), without the traceback and without the wait: the program's
output is flushed first. It is installed on import of `pulumi_notify` only when

- the process is the language host's (`pulumi-language-python-exec` in `sys.orig_argv`,
  Python 3.10 and later): an Automation API program, a unit test with mocks and any other
  script keep Python's handling of Ctrl-C;
- the import runs on the main thread (the only one that can set a handler);
- SIGINT still has Python's default handler: a handler the program or a library set is kept;
- `PULUMI_NOTIFY_PYTHON_SIGINT` is not `default` (set it so to keep Python's handling, e.g. to
  see where a hanging program was when the engine stopped it).
"""

import os
import signal
import sys
import threading

__all__: list = []

EXEC = "pulumi-language-python-exec"
ENV = "PULUMI_NOTIFY_PYTHON_SIGINT"


def _run_by_language_host() -> bool:
    argv = getattr(sys, "orig_argv", None) or []
    return any(os.path.basename(str(a)) == EXEC for a in argv)


def _end_quietly(signum, _frame) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 a stream closed or mid-write: end all the same
            pass
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    os._exit(128 + signum)  # only if the signal did not end the process


def install() -> bool:
    """Installs the handler where the module docstring says; True when it did."""
    if os.environ.get(ENV, "") == "default" or not _run_by_language_host():
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _end_quietly)
    return True


install()
