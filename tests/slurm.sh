#!/bin/sh
# slurm.sh - a throwaway Slurm controller in a directory of its own, for
# the tests of ar-map --slurm (Debian's slurmctld, slurm-client and munge,
# 22.05; make deps installs them).
#
#   sh tests/slurm.sh start DIR
#	make DIR (anything of ours there before is stopped and removed):
#	munged on a socket in DIR with a key of its own, a slurm.conf of
#	16 nodes cn[01-16] (no slurmd: the controller alone creates,
#	updates and deletes reservations), state in DIR, a free port on
#	127.0.0.1; start slurmctld and wait until it answers.  Print the
#	path of slurm.conf, for SLURM_CONF.
#   sh tests/slurm.sh stop DIR
#	stop the controller and munged at once and remove DIR.
#   sh tests/slurm.sh halt DIR
#	stop the controller only; its state stays for a restart.
#   sh tests/slurm.sh restart DIR
#	start the controller again on the state it left.
#   sh tests/slurm.sh can
#	exit 0 if a controller can run here, else print why not, exit 1.
#
# The controller and scontrol see one user more than /etc/passwd has,
# arldap (uid 4242, group arldap 4242), as a user of LDAP or SSSD would be
# seen, when Debian's libnss-wrapper is there: DIR/passwd and DIR/group
# are the files, and DIR/nss.env the variables (LD_PRELOAD, NSS_WRAPPER_*)
# that give a dynamically linked program the same view.  Runs as root
# only: slurmctld runs as SlurmUser=root.

set -u

prog="slurm.sh"
NSS_WRAPPER=$(ls /usr/lib/*/libnss_wrapper.so /usr/lib/libnss_wrapper.so \
    2>/dev/null | head -n 1)

die() {
	echo "$prog: $*" >&2
	exit 3
}

can() {
	[ "$(id -u)" = 0 ] || { echo "not root (slurmctld runs as SlurmUser=root)"; return 1; }
	for p in slurmctld scontrol munged mungekey; do
		command -v "$p" >/dev/null 2>&1 ||
		    PATH=$PATH:/usr/sbin command -v "$p" >/dev/null 2>&1 ||
		    { echo "no $p (make deps installs slurmctld, slurm-client, munge)"; return 1; }
	done
	return 0
}

absdir() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}

# A port nobody listens on: the kernel's choice for a socket bound to 0
# is free now; the small race until slurmctld binds it is the tests'.
# The draws are seeded by the clock and our pid: two controllers started
# in the same second (two runs of the suite at once) draw other ports.
free_port() {
	for p in $(awk -v pid=$$ 'BEGIN { srand(); srand(srand() + pid)
	    for (i = 0; i < 50; i++) print 20000 + int(rand() * 30000) }'); do
		hex=$(printf ':%04X ' "$p")
		grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null ||
		    { echo "$p"; return; }
	done
	die "no free port"
}

running() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null &&
	    [ "$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

# stop_pid FILE: end the process whose pid FILE holds, and wait for it.
stop_pid() {
	[ -f "$1" ] || return 0
	pid=$(cat "$1" 2>/dev/null)
	running "$pid" || { rm -f "$1"; return 0; }
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 100); do
		running "$pid" || { rm -f "$1"; return 0; }
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	for i in $(seq 100); do
		running "$pid" || { rm -f "$1"; return 0; }
		sleep 0.05
	done
	die "process $pid of $1 does not die"
}

nss_env() {
	if [ -n "$NSS_WRAPPER" ]; then
		printf '%s\n' "LD_PRELOAD=$NSS_WRAPPER" \
		    "NSS_WRAPPER_PASSWD=$1/passwd" "NSS_WRAPPER_GROUP=$1/group"
	fi
}

start_ctld() {
	rm -f "$1/ctld.log"
	# setsid: the controller outlives the shell that started it, which
	# must not wait for it; stop and halt end it by its pid file.
	env $(cat "$1/nss.env") setsid slurmctld -D -f "$1/slurm.conf" \
	    </dev/null >"$1/ctld.out" 2>&1 &
	echo $! >"$1/ctld.pid"
	for i in $(seq 200); do
		if SLURM_CONF=$1/slurm.conf scontrol ping 2>/dev/null |
		    grep -q 'is UP'; then
			return 0
		fi
		running "$(cat "$1/ctld.pid")" || break
		sleep 0.05
	done
	tail -n 20 "$1/ctld.out" >&2
	die "$1: slurmctld did not start"
}

cmd_start() {
	dir=$(absdir "$1")
	cmd_stop "$dir"
	mkdir -p "$dir/munge" "$dir/state" || die "$dir: cannot make it"
	: >"$dir/.ar-slurm"
	chmod 700 "$dir/munge"
	mungekey -c -k "$dir/munge/key" >/dev/null 2>&1 ||
	    die "mungekey failed"
	munged -f --socket="$dir/munge/sock" --key-file="$dir/munge/key" \
	    --log-file="$dir/munge/log" --pid-file="$dir/munge/pid" \
	    --seed-file="$dir/munge/seed" || die "munged did not start"
	{ cat /etc/passwd; echo 'arldap:x:4242:4242:LDAP user:/nonexistent:/bin/false'; } \
	    >"$dir/passwd"
	{ cat /etc/group; echo 'arldap:x:4242:'; } >"$dir/group"
	nss_env "$dir" >"$dir/nss.env"
	cat >"$dir/slurm.conf" <<EOF
ClusterName=artest
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmctldPidFile=$dir/slurmctld.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmctldDebug=error
MessageTimeout=2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
MpiDefault=none
SwitchType=switch/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=cn[01-16] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=all Nodes=cn[01-16] Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=cn[13-16] MaxTime=INFINITE State=UP
EOF
	start_ctld "$dir"
	echo "$dir/slurm.conf"
}

cmd_halt() {
	stop_pid "$1/ctld.pid"
}

cmd_stop() {
	dir=$1
	[ -e "$dir" ] || return 0
	[ -e "$dir/.ar-slurm" ] || [ -z "$(ls -A "$dir")" ] ||
	    die "$dir: not a controller of slurm.sh, not removed"
	stop_pid "$dir/ctld.pid"
	stop_pid "$dir/munge/pid"
	rm -rf "$dir"
}

PATH=$PATH:/usr/sbin:/sbin
export PATH
case ${1:-} in
can) can ;;
start|stop|halt|restart)
	[ $# -ge 2 ] || { echo "usage: $prog start|stop|halt|restart DIR | can" >&2; exit 2; }
	msg=$(can) || die "$msg"
	dir=$(absdir "$2")
	case $1 in
	start) cmd_start "$dir" ;;
	stop) cmd_stop "$dir" ;;
	halt) cmd_halt "$dir" ;;
	restart) start_ctld "$dir" ;;
	esac
	;;
*)
	echo "usage: $prog start|stop|halt|restart DIR | can" >&2
	exit 2
	;;
esac
