# 56-partition-outputs.sh - what partitions change in the outputs (issue
# 23): the usage report by partition, ar-map's chart grouped by
# partition, and the Slurm export's PartitionName.

# batch: 4 plain hosts, the default; gpu: 2 hosts with a100.
two_partitions() {
	printf '%s\n' 'hosts=n[1-4] partition=batch' \
	    'hosts=g[1-2] partition=gpu features=a100' >"$D/hosts"
	mkstore --hosts-from "$D/hosts"
}

begin 'partitions: --usage --by partition counts each partition against its own hosts'
two_partitions
run ar-add start=+1h duration=2h nodes=4
expect_exit 0
run ar-add start=+1h duration=1h nodes=1 partition=gpu
expect_exit 0
run ar-report --usage --from now --to +4h --by partition
expect_exit 0
expect_out <<'EOF'
partition=batch from=2026-11-21T00:00:00Z to=2026-11-21T04:00:00Z utilisation=0.5 reserved=96 idle=96 granted=1 refused=unknown refused_full=unknown refused_past=unknown refused_horizon=unknown refused_capacity=unknown refused_key_reused=unknown refused_booking_limit=unknown refused_hosts=unknown refused_no_slices=unknown acceptance=unknown awt=0 awt_max=0 moved=0
partition=gpu from=2026-11-21T00:00:00Z to=2026-11-21T04:00:00Z utilisation=0.125 reserved=12 idle=84 granted=1 refused=unknown refused_full=unknown refused_past=unknown refused_horizon=unknown refused_capacity=unknown refused_key_reused=unknown refused_booking_limit=unknown refused_hosts=unknown refused_no_slices=unknown acceptance=unknown awt=0 awt_max=0 moved=0
window=total from=2026-11-21T00:00:00Z to=2026-11-21T04:00:00Z utilisation=0.375 reserved=108 idle=180 granted=2 refused=unknown refused_full=unknown refused_past=unknown refused_horizon=unknown refused_capacity=unknown refused_key_reused=unknown refused_booking_limit=unknown refused_hosts=unknown refused_no_slices=unknown acceptance=unknown awt=0 awt_max=0 moved=0
EOF
run ar-report --usage --by pool
expect_exit 2
expect_err "ar-report: option '--by': unknown label 'pool' (use user, job, class or partition)"

begin 'partitions: ar-map --svg groups the hosts by partition, each named and ruled off'
two_partitions
run ar-add start=+1h duration=2h nodes=4
run ar-add start=+1h duration=1h nodes=2 partition=gpu
run ar-map --svg "$D/plan.svg" --to +4h
expect_exit 0
# The names beside the rows, top down: the partitions' where each
# begins, batch (the default) first though gpu's hosts sort first.
rows() {
	sed -n 's/^<text \(class="partition" \)\{0,1\}x="[0-9]*" y="\([0-9.]*\)"[^>]*>\([a-z0-9]*\)<\/text>$/\2 \3/p' "$1" |
	    sort -n -s -k1,1 | cut -d' ' -f2
}
run rows "$D/plan.svg"
expect_out batch n1 n2 n3 n4 gpu g1 g2
run grep -c '^<line x1="2"' "$D/plan.svg"
expect_out 1
# Each reservation one bar: its hosts are rows in a run.
run grep -c 'class="resv"' "$D/plan.svg"
expect_out 2

begin 'partitions: ar-suggest --frames tells each partition'"'"'s free time frames, and --fit takes the option'"'"'s pool'"'"'s hosts'
two_partitions
run ar-add start=+1h duration=2h nodes=3
run ar-add start=+1h duration=1h nodes=1 partition=gpu
run ar-suggest --frames --to +4h
expect_exit 0
expect_out <<'EOF'
partition=batch start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=4 hosts=n[1-4]
partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z free=1 hosts=n4
partition=batch start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 hosts=n[1-4]
partition=gpu start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=2 hosts=g[1-2]
partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=1 hosts=g2
partition=gpu start=2026-11-21T02:00:00Z end=2026-11-21T04:00:00Z free=2 hosts=g[1-2]
EOF
run ar-suggest --fit first start=+1h duration=1h nodes=1 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T02:00:00Z free=1 status=suggested hosts=g2'
