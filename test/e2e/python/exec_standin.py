"""A stand-in for the Pulumi Python language host's `pulumi-language-python-exec`, written for
test/e2e/pythonInterrupt.test.ts, which copies it under that name (the name pulumi_notify looks
for in `sys.orig_argv`). It puts a program in the state it is in when the engine interrupts it
after a failed resource: the main thread runs the program's event loop, waiting for a resource
registration that a worker thread of the loop's executor sends and the engine never answers; the
script catches `Exception`, not `KeyboardInterrupt`, and shuts the executor down waiting for its
threads, as the real one does.

    pulumi-language-python-exec wait      imports pulumi_notify as a program does, says which
                                          SIGINT handler it left ("handler: ..."), writes
                                          "pending output" unflushed to stdout, then "waiting" to stderr,
                                          and waits for the engine
    pulumi-language-python-exec report    the handler only, then exits
    pulumi-language-python-exec own       the program sets a SIGINT handler of its own first
    pulumi-language-python-exec thread    the import runs on a worker thread
"""

import asyncio
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor


def own_handler(signum, frame):
    raise SystemExit(3)


def handler_name() -> str:
    h = signal.getsignal(signal.SIGINT)
    if h is signal.default_int_handler:
        return "default"
    if h is own_handler:
        return "own"
    if h is signal.SIG_IGN:
        return "ignored"
    return getattr(h, "__module__", None) or repr(h)


def main(case: str) -> int:
    if case == "own":
        signal.signal(signal.SIGINT, own_handler)
    if case == "thread":
        t = threading.Thread(target=lambda: __import__("pulumi_notify"))
        t.start()
        t.join()
    else:
        import pulumi_notify  # noqa: F401 as a program imports it
    print(f"handler: {handler_name()}", flush=True)
    if case != "wait":
        return 0

    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor(max_workers=2)
    loop.set_default_executor(executor)
    never_answered = threading.Event()

    def register():
        # A registration whose answer never comes: the worker blocks as on the engine's RPC.
        sys.stderr.write("waiting\n")
        sys.stderr.flush()
        never_answered.wait()

    async def program():
        await loop.run_in_executor(None, register)

    sys.stdout.write("pending output\n")
    exit_code = 1
    try:
        loop.run_until_complete(program())
        exit_code = 0
    except Exception as e:  # noqa: BLE001 what the host's script catches
        print(f"error: {e}", file=sys.stderr)
    finally:
        executor.shutdown(wait=True)
        loop.close()
    return exit_code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
