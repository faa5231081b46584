#!/usr/bin/env bash
# Runs vitest with every process's wall clock set to an instant (libfaketime, Debian's `faketime`),
# so that a test bound to today's date, weekday, time of day or daylight-saving state shows itself.
#
#   test/calendar/runAt.sh 2026-11-29T22:30:00Z                # the whole suite, Monday 00:30 in Bucharest
#   test/calendar/runAt.sh 2026-11-29T22:30:00Z test/features # some files (vitest filters)
#   test/calendar/runAt.sh --calendar-bound 2026-11-29T22:30:00Z  # the files that speak of relative days
#
# The clock starts at the instant and runs on; monotonic clocks (timers) stay real, and child
# processes (vitest's workers, redis-server, Chromium) share the parent's timeline.
set -euo pipefail
cd "$(dirname "$0")/../.."

select_bound=false
if [ "${1:-}" = "--calendar-bound" ]; then
  select_bound=true
  shift
fi
instant="${1:?usage: runAt.sh [--calendar-bound] YYYY-MM-DDTHH:MM:SSZ [vitest arguments…]}"
shift
case "$instant" in
  *Z) ;;
  *) echo "runAt.sh: give the instant in UTC, ending in Z (e.g. 2026-11-29T22:30:00Z)" >&2; exit 2 ;;
esac
if ! command -v faketime >/dev/null 2>&1; then
  echo "runAt.sh: faketime is missing (apt-get install faketime)" >&2
  exit 2
fi

start="$(date -u -d "$instant" '+%Y-%m-%d %H:%M:%S')"
export TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_DONT_RESET=1 NO_FAKE_STAT=1

# The fake clock must reach Node, or the run proves nothing.
seen="$(faketime -f "@$start" node -e 'process.stdout.write(new Date().toISOString().slice(0, 13))')"
if [ "$seen" != "$(date -u -d "$instant" '+%Y-%m-%dT%H')" ]; then
  echo "runAt.sh: Node did not see the fake clock (saw $seen, wanted $instant)" >&2
  exit 1
fi

files=()
if $select_bound; then
  # A test that names a day relative to today: yesterday, today, this/last week or month, last N days;
  # or one whose vehicles may move at the hour it runs (AfterHours: 00:30 is outside 06:00-22:00).
  # Files that start a redis-server are left out: Redis cannot run under libfaketime (it hangs at
  # start), so it keeps the real clock, and a run would mix it with Node's moved one, which no
  # deployment does (BullMQ and the Redis gate compare both). The same date logic runs in the
  # SQLite-mode files, which stay in.
  mapfile -t files < <(grep -rlEi --include='*.test.ts' \
    "\b(ieri|azi|astăzi|yesterday|today|this week|last week|this month|last month|săptămâna|luna (asta|aceasta|trecută)|ultimele [0-9]+|last [0-9]+ ?(d|days|h|hours)|AfterHours)\b" test |
    xargs grep -L "startRedisServer\|processReplicas\|replicaHarness\|workspaceReplicas" | sort)
  echo "runAt.sh: ${#files[@]} test files name a day relative to today (and need no Redis)"
fi

echo "runAt.sh: the clock starts at $instant ($(TZ=Europe/Bucharest date -d "$instant" '+%A %d %B %Y %H:%M %Z') in Bucharest)"
exec faketime -f "@$start" npx vitest run "${files[@]}" "$@"
