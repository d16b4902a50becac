"""Runs one operation of a Python Automation API inline program for the tests.

    run(make_program, project_name=None)

reads the settings as JSON on stdin (workDir: a project directory whose Pulumi.yaml the test
wrote, with the backend and `plugins.providers`; pulumiRoot: the directory holding bin/pulumi;
config: the stack config; anything else the program needs), takes the operation from argv[1]
(`up`, `up-refresh`, `preview` (expecting no changes), `preview-refresh` (with the engine's
detailed diffs), `destroy`), and writes one JSON object with what it reported on stdout, with
`warnings`, the engine's warning diagnostics of the operation. The CLI's own output goes to stderr. `make_program(settings)` gives the program; the project's name is
`project_name`, else the settings' projectName. The environment
(PULUMI_HOME, backend, passphrase, PATH with Node for the plugin) is the caller's.
"""

import json
import sys
from typing import Callable, Optional

from pulumi import automation as auto


def detailed_diffs(events: list) -> dict:
    """Per resource name: the step's operation and its detailed diff (property to diff kind)."""
    diffs = {}
    for e in events:
        pre = e.resource_pre_event
        if pre is None:
            continue
        m = pre.metadata
        if m.op in ("same", "refresh") or m.type == "pulumi:pulumi:Stack" or m.type.startswith("pulumi:providers:"):
            continue
        name = m.urn.split("::")[-1]
        diffs[name] = {"op": str(m.op.value if hasattr(m.op, "value") else m.op), "detailed": {k: str(d.diff_kind.value) for k, d in (m.detailed_diff or {}).items()}}
    return diffs


def warnings(events: list) -> list:
    """The engine's warning diagnostics among the events: each its resource's URN ("" for none) and message."""
    out = []
    for e in events:
        d = e.diagnostic_event
        if d is not None and d.severity == "warning":
            out.append({"urn": d.urn or "", "message": d.message.strip()})
    return out


def run(make_program: Callable[[dict], Callable[[], None]], project_name: Optional[str] = None) -> None:
    op = sys.argv[1]
    settings = json.load(sys.stdin)
    stack = auto.create_or_select_stack(
        "test",
        project_name=project_name or settings["projectName"],
        program=make_program(settings),
        opts=auto.LocalWorkspaceOptions(
            work_dir=settings["workDir"],
            pulumi_command=auto.PulumiCommand(root=settings["pulumiRoot"], skip_version_check=True),
        ),
    )
    stack.set_all_config({k: auto.ConfigValue(v["value"], secret=bool(v.get("secret"))) for k, v in settings["config"].items()})
    log = lambda line: print(line, file=sys.stderr)  # noqa: E731
    events: list = []
    if op in ("up", "up-refresh"):
        res = stack.up(on_output=log, refresh=op == "up-refresh", on_event=events.append)
        out = {
            "changes": res.summary.resource_changes,
            "outputs": {k: {"value": v.value, "secret": v.secret} for k, v in res.outputs.items()},
        }
    elif op == "preview":
        res = stack.preview(on_output=log, expect_no_changes=True, on_event=events.append)
        out = {"changes": res.change_summary}
    elif op == "preview-refresh":
        res = stack.preview(on_output=log, refresh=True, diff=True, on_event=events.append)
        out = {"changes": res.change_summary, "diffs": detailed_diffs(events), "stdout": res.stdout}
    elif op == "destroy":
        res = stack.destroy(on_output=log, on_event=events.append)
        out = {"changes": res.summary.resource_changes}
    else:
        raise SystemExit(f"unknown operation {op}")
    out["warnings"] = warnings(events)
    json.dump(out, sys.stdout)
