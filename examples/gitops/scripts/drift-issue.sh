#!/usr/bin/env bash
# Called by the drift job when `pulumi preview --refresh --expect-no-changes` failed: opens an
# issue about the drift, or comments on the one already open, so that drift is seen once and
# followed up. Needs the GitHub CLI (`gh`, on GitHub's runners) with GH_TOKEN, and STACK and
# RUN_URL in the environment.
set -euo pipefail
: "${STACK:?STACK must name the stack}"
: "${RUN_URL:?RUN_URL must link to the workflow run}"
title="Notification drift in stack ${STACK}"
body="The scheduled drift check found changes made outside this repository: ${RUN_URL}

Either bring them into the code (and merge), or run the workflow on main to put the declared state back."
existing="$(gh issue list --state open --search "\"${title}\" in:title" --json number --jq '.[0].number // empty')"
if [[ -n "$existing" ]]; then
  gh issue comment "$existing" --body "$body"
  echo "commented on issue #${existing}"
else
  gh issue create --title "$title" --body "$body"
  echo "opened an issue: ${title}"
fi
