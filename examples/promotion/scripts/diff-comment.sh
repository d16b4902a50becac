#!/usr/bin/env bash
# Called by the pull request's environments job: for each environment named (staging, prod), the
# differences between dev (NOTIFY_API_URL, NOTIFY_API_KEY) and it (NOTIFY_API_KEY_<NAME>, at the
# same address, or NOTIFY_API_URL_<NAME> for another installation), as `notify-export --diff
# --markdown` writes them, posted on the pull request in one comment that later pushes edit. The
# comment is found by a marker line of its own. Needs the GitHub CLI (`gh`, on GitHub's runners)
# with GH_TOKEN and GH_REPO, and PR_NUMBER.
set -euo pipefail
: "${PR_NUMBER:?PR_NUMBER must be the pull request number}"
: "${NOTIFY_API_URL:?NOTIFY_API_URL must be the service address}"
(( $# > 0 )) || { echo "usage: $0 ENVIRONMENT..." >&2; exit 2; }
marker="<!-- notify-export --diff -->"
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
printf '%s\n%s\n' "$marker" "Differences between dev and the environments it is promoted to (secrets not compared)." > "$body"
for name in "$@"; do
  upper="$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')"
  key_var="NOTIFY_API_KEY_${upper}"
  url_var="NOTIFY_API_URL_${upper}"
  if [[ -z "${!key_var:-}" ]]; then
    echo "${key_var} must hold the API key of environment ${name}" >&2
    exit 2
  fi
  printf '\n## dev -> %s\n\n' "$name" >> "$body"
  # Exit 1 means "they differ", which is what a promotion shows; anything else is a failure.
  status=0
  NOTIFY_OTHER_API_URL="${!url_var:-$NOTIFY_API_URL}" NOTIFY_OTHER_API_KEY="${!key_var}" \
    npx notify-export --diff --markdown >> "$body" || status=$?
  (( status <= 1 )) || exit "$status"
done
existing="$(gh api "repos/{owner}/{repo}/issues/${PR_NUMBER}/comments" --paginate --jq ".[] | select(.body | startswith(\"${marker}\")) | .id" | tail -n 1)"
if [[ -n "$existing" ]]; then
  gh api --method PATCH "repos/{owner}/{repo}/issues/comments/${existing}" -F "body=@${body}" > /dev/null
  echo "updated comment ${existing} on pull request #${PR_NUMBER}"
else
  gh pr comment "$PR_NUMBER" --body-file "$body"
  echo "commented on pull request #${PR_NUMBER}"
fi
