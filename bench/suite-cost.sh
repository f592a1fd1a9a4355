#!/usr/bin/env bash
# The cost of a command and every process it starts: wall time and CPU time (user + system),
# read from a control group of its own, so that nothing is missed (processes whose parent
# ended without waiting, Chromium's many, LibreOffice's) and nothing else on the machine is
# counted. For the suite: bench/suite-cost.sh .ci/run (docs/testing.md). Needs root (a new
# cgroup); cgroup v2, or v1's cpuacct.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 command [args...]" >&2; exit 2; }
name="suite-cost-$$"
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  group="/sys/fs/cgroup/$name"; mkdir "$group"; usage() { awk '/^usage_usec/ { printf "%.1f", $2 / 1e6 }' "$group/cpu.stat"; }
else
  group="/sys/fs/cgroup/cpuacct/$name"; mkdir "$group"; usage() { awk '{ printf "%.1f", $1 / 1e9 }' "$group/cpuacct.usage"; }
fi
started=$(date +%s.%N)
status=0
( echo $BASHPID > "$group/cgroup.procs"; exec "$@" ) || status=$?
ended=$(date +%s.%N)
cpu=$(usage)
echo "suite-cost: exit $status, wall $(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }') s, CPU $cpu s (user + system, every process)" >&2
# a process left behind keeps the group: it is removed once empty
rmdir "$group" 2>/dev/null || true
exit $status
