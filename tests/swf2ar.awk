# swf2ar.awk - turn a Standard Workload Format trace (Parallel Workloads
# Archive) into ar request records, one per job, as in GarQ section 5.1:
#
#   start=@T duration=Ns nodes=N user=uU job=jJ
#
# T is the header's UnixStartTime plus the job's submit time (field 2) and
# wait time (field 3); the store rounds it up to a slot, not this script.
# The duration is the run time (field 4) clamped to [300, 2419200] seconds;
# nodes are the allocated processors (field 5), else the requested ones
# (field 8), clamped to [1, 64]; user is field 12 and job field 1.  Header
# lines (';') and jobs that did not run (run time <= 0) or whose start is
# unknown (submit or wait < 0) are skipped.  Works with mawk and gawk.
#
# usage: awk -f swf2ar.awk trace.swf > requests

/^[ \t]*;/ {
	if ($0 ~ /UnixStartTime:/) {
		s = $0
		sub(/.*UnixStartTime:[ \t]*/, "", s)
		base = s + 0
		have_base = 1
	}
	next
}

NF < 12 { next }

{
	if (!have_base) {
		print "swf2ar: no '; UnixStartTime:' header before the first job" \
		    > "/dev/stderr"
		exit 1
	}
	if ($4 <= 0 || $2 < 0 || $3 < 0)
		next
	t = base + $2 + $3
	d = int($4)
	if (d < $4)
		d++
	if (d < 300)
		d = 300
	if (d > 2419200)
		d = 2419200
	n = $5 > 0 ? $5 : $8
	if (n < 1)
		n = 1
	if (n > 64)
		n = 64
	printf "start=@%.0f duration=%.0fs nodes=%d user=u%s job=j%s\n",
	    t, d, n, $12, $1
}
