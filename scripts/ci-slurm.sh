#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI stage: `npu-pipeline sweep --slurm --submit` on a real, single-node Slurm. Installs Debian's
# slurm-wlm and munge when missing, starts munged, slurmctld and slurmd on localhost (as
# /work/shared/notes/slurm-single-node.md describes; run as root), runs a small sweep (2 generated
# networks x 6 configurations) as a 3-shard job array plus the dependent merge job, and checks the merged
# table, JSON and page equal a local run of the same sweep byte for byte. Stops every daemon it started.
# usage: scripts/ci-slurm.sh [build-dir]   (a built tree; default build/test)
set -euo pipefail
echo "== slurm sweep"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build/test}" && pwd)"
npu="$build/bin/npu-pipeline"
if [ "$(id -u)" -ne 0 ]; then
  # slurmd runs jobs as their user and munged runs as munge: the daemons need root.
  if command -v sudo >/dev/null; then exec sudo -E bash "$0" "$build"; fi
  echo "ci-slurm: needs root (or sudo) to start munged, slurmctld and slurmd" >&2
  exit 2
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >/dev/null
  apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null
fi

work="$(mktemp -d /tmp/npu-ci-slurm.XXXXXX)"
chmod 755 "$work"
pids=()
munge_pid=""
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$munge_pid" ]; then kill "$munge_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# munge: authentication between the Slurm daemons and commands.
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
[ -f /etc/munge/munge.key ] || { echo "ci-slurm: /etc/munge/munge.key is missing" >&2; exit 1; }
runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/ci-munged.pid --socket=/run/munge/munge.socket.2
munge_pid="$(cat /run/munge/ci-munged.pid)"
munge -n | unmunge | grep -q "STATUS:.*Success" || { echo "ci-slurm: munge does not work" >&2; exit 1; }

# One controller and one node, both this host, state and logs in the work folder.
host="$(hostname)"
cpus="$(nproc)"
memory=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) * 9 / 10 ))
mkdir -p "$work/state" "$work/spool" "$work/log"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=npu-ci
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" > "$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$work/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -q idle; then break; fi
  sleep 1
done
sinfo -h -o '%t' | grep -q idle || { echo "ci-slurm: the node never became idle" >&2; cat "$work/log/"*.log >&2; exit 1; }

# The sweep: two generated networks, a 3 x 2 grid whose smallest arena does not fit.
mkdir -p "$work/sweep/networks"
"$build/bin/npu-model-gen" mobilenet-v1 --alpha 0.25 --resolution 48 --blocks 3 --classes 10 -o "$work/sweep/networks/v1.tflite"
"$build/bin/npu-model-gen" mobilenet-v2 --alpha 0.35 --resolution 48 --blocks 3 --classes 10 -o "$work/sweep/networks/v2.tflite"
cat > "$work/sweep/sweep.yaml" <<SWEEP
name: ci slurm sweep
pipeline: $root/configs/reference/C1-cascade.yaml
axes:
  accelerator.config: [ethos-u55-64, ethos-u55-128, ethos-u55-256]
  accelerator.arena_cache_size: [1KiB, 1MiB]
networks: ['networks/*.tflite']
slurm: { shards: 3, cpus_per_task: 1 }
SWEEP
"$npu" sweep "$work/sweep/sweep.yaml" -o "$work/local" --threads 2 >/dev/null 2>&1 || [ $? -eq 1 ]

"$npu" sweep "$work/sweep/sweep.yaml" -o "$work/cluster" --slurm --submit
read -r array_job merge_job < "$work/cluster/slurm/jobs"
state=""
for _ in $(seq 600); do
  state="$(scontrol show job "$merge_job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true)"
  case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
  sleep 1
done
# The shards record every point (a point that does not fit is a row), so each task ends COMPLETED; the
# merge job's state is its exit status: FAILED here, since the 1 KiB points do not fit.
tasks="$(scontrol show job "$array_job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | xargs)"
echo "array job $array_job: $tasks; merge job $merge_job: $state"
[ "$tasks" = "3 JobState=COMPLETED" ] || { echo "ci-slurm: a shard did not complete" >&2; cat "$work/cluster/slurm/"*.log >&2; exit 1; }
[ "$state" = FAILED ] || { echo "ci-slurm: the merge job ended $state, expected FAILED (exit 1)" >&2; exit 1; }
for file in sweep.csv sweep.json sweep.html; do
  if ! cmp "$work/local/$file" "$work/cluster/$file"; then
    echo "ci-slurm: $file from the Slurm run differs from the local run" >&2
    cat "$work/cluster/slurm/"*.log >&2 || true
    exit 1
  fi
done
points="$(ls "$work/cluster/points" | wc -l)"
[ "$points" -eq 12 ] || { echo "ci-slurm: expected 12 point files, found $points" >&2; exit 1; }
echo "ci-slurm: 3 shards + merge on Slurm give the local table byte for byte ($points points)"
