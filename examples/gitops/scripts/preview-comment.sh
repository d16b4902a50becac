#!/usr/bin/env bash
# Called by the preview job after `notify-preview --changed-from plan.json --out previews`: posts
# the summary (the file given, previews/summary.md by default) on the pull request, editing this
# job's comment from an earlier push rather than adding one per push. The comment is found by a
# marker line of its own: `gh pr comment --edit-last` would take the last comment of the token's
# user, which may be the plan that pulumi/actions posts with the same token. The summary's images
# and HTML files are relative to it, so the comment starts with a link to the uploaded artifact.
# Needs the GitHub CLI (`gh`, on GitHub's runners) with GH_TOKEN and GH_REPO, and STACK, PR_NUMBER
# and ARTIFACT_URL in the environment.
set -euo pipefail
: "${STACK:?STACK must name the stack}"
: "${PR_NUMBER:?PR_NUMBER must be the pull request number}"
: "${ARTIFACT_URL:?ARTIFACT_URL must link to the uploaded previews}"
summary="${1:-previews/summary.md}"
marker="<!-- notify-preview: ${STACK} -->"
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
{
  printf '%s\n' "$marker"
  printf '%s\n\n' "Rendered messages of this change (stack \`${STACK}\`). The pictures and HTML files the table links to are in the \`previews\` artifact: ${ARTIFACT_URL}"
  cat "$summary"
} > "$body"
existing="$(gh api "repos/{owner}/{repo}/issues/${PR_NUMBER}/comments" --paginate --jq ".[] | select(.body | startswith(\"${marker}\")) | .id" | tail -n 1)"
if [[ -n "$existing" ]]; then
  gh api --method PATCH "repos/{owner}/{repo}/issues/comments/${existing}" -F "body=@${body}" > /dev/null
  echo "updated comment ${existing} on pull request #${PR_NUMBER}"
else
  gh pr comment "$PR_NUMBER" --body-file "$body"
  echo "commented on pull request #${PR_NUMBER}"
fi
