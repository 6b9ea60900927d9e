#!/usr/bin/env bash
# Installs and starts a single-node Slurm cluster on loopback for the cluster tests
# (cmd/nqueens/cluster_test.go): munge, slurmctld and slurmd as root, state and logs
# under $SLURM_DIR (default /tmp/nqueens-slurm), configuration in $SLURM_DIR/slurm.conf.
# Also installs GNU parallel. Idempotent: daemons already running are restarted.
#
# Prints, for the caller to eval or export:
#   SLURM_CONF=...  NQUEENS_SLURM_LOGS=...
# On failure prints the daemons' logs and exits non-zero.
# `.ci/slurm.sh stop` stops the daemons it started.
set -euo pipefail
SLURM_DIR=${SLURM_DIR:-/tmp/nqueens-slurm}
log() { echo "slurm.sh: $*" >&2; }

stop() {
	for pid in "$SLURM_DIR"/slurmd.pid "$SLURM_DIR"/slurmctld.pid; do
		if [ -f "$pid" ]; then kill "$(cat "$pid")" 2>/dev/null || true; fi
	done
	if [ -f "$SLURM_DIR/munged.started" ] && [ -f /run/munge/munged.pid ]; then
		kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
		rm -f "$SLURM_DIR/munged.started"
	fi
}
if [ "${1:-}" = stop ]; then
	stop
	exit 0
fi

need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
command -v parallel >/dev/null || need+=(parallel)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq "${need[@]}" >&2
fi

dump_logs() {
	log "the cluster did not come up; logs follow"
	for f in "$SLURM_DIR"/log/*.log /var/log/munge/munged.log; do
		[ -f "$f" ] || continue
		echo "----- $f (last 60 lines)" >&2
		tail -n 60 "$f" >&2
	done
	echo "----- sinfo" >&2
	SLURM_CONF="$SLURM_DIR/slurm.conf" sinfo -N -l >&2 || true
	exit 1
}

# Stop the Slurm daemons a previous run of this script started (by pid file only).
for pid in "$SLURM_DIR"/slurmd.pid "$SLURM_DIR"/slurmctld.pid; do
	if [ -f "$pid" ]; then kill "$(cat "$pid")" 2>/dev/null || true; fi
done
sleep 0.5
started_munge=$([ -f "$SLURM_DIR/munged.started" ] && echo 1 || true)
rm -rf "$SLURM_DIR"
mkdir -p "$SLURM_DIR"/{state,spool,log}
if [ -n "$started_munge" ]; then touch "$SLURM_DIR/munged.started"; fi

# munge: a key (the package makes one; make sure), a run directory, the daemon.
if [ ! -s /etc/munge/munge.key ]; then
	log "creating /etc/munge/munge.key"
	dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
fi
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /etc/munge/munge.key /run/munge /var/log/munge /var/lib/munge
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	runuser -u munge -- /usr/sbin/munged || dump_logs
	touch "$SLURM_DIR/munged.started"
	for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
	munge -n | unmunge >/dev/null || dump_logs
fi

cpus=$(nproc)
cat >"$SLURM_DIR/slurm.conf" <<CONF
# Single-node loopback cluster for the nqueens tests (written by .ci/slurm.sh).
ClusterName=nqueens
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmdSpoolDir=$SLURM_DIR/spool
StateSaveLocation=$SLURM_DIR/state
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,sched_min_interval=100000
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MaxArraySize=10001
KillWait=10
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$SLURM_DIR/slurm.conf"

slurmctld -f "$SLURM_CONF" || dump_logs
slurmd -f "$SLURM_CONF" -N localhost || dump_logs
for _ in $(seq 60); do
	state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
	case "$state" in idle*|mixed*|allocated*) break ;; esac
	sleep 0.5
done
case "$state" in idle*|mixed*|allocated*) ;; *) log "node state '$state'"; dump_logs ;; esac
log "cluster up: node localhost $state, $cpus CPUs"
echo "SLURM_CONF=$SLURM_CONF"
echo "NQUEENS_SLURM_LOGS=$SLURM_DIR/log"
