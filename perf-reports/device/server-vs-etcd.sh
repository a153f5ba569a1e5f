#!/bin/bash
# Issue 14 on the device: RingWatch's etcd server against etcd 3.4 with the same client, one invocation per figure:
# puts/s at 256 in flight, events/s with 100 watchers of every put, p99 at 2,000 writes/s; skips what no longer fits.
# CONNECTIONS lists the --etcd-connections to run each saturated figure with (client channels per peer; the 256 in
# flight are shared across them), in order; a run's name ends in -c<N>.
# PUMPS lists the server's --watch-pumps to run each events figure with (a run's name then ends in -p<N>; "default": the
# server's own, a quarter of the cores). A stream stays on one pump, and a client connection is one watch stream, so
# more pumps can only show with more connections.
# Usage on the device: BUDGET=400 CLIENTS="grpc jetcd" CONNECTIONS="1 4" PERSISTENCE=sync,none .device/server/server-vs-etcd.sh $OUT
# Issue 14's pumps: BUDGET=400 CLIENTS=grpc CONNECTIONS="1 4 16" PUMPS="1 4" PERSISTENCE=none .device/server/server-vs-etcd.sh $OUT
O=${1:-/tmp/out14}; SMALL=$2; mkdir -p $O/r
D=$(cd $(dirname $0) && pwd); R=$(cd $D/../.. && pwd)
[ -x /tmp/jre/bin/java ] || tar -xJf $R/.device/jre.tar.xz -C /tmp
J=/tmp/jre/bin/java
E=$(command -v etcd) || { xz -dc $D/etcd.xz > /tmp/etcd; chmod +x /tmp/etcd; E=/tmp/etcd; }
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
L=$O/log.txt; T0=$SECONDS; BUDGET=${BUDGET:-400}; P=${PERSISTENCE:-sync,none}
st() { echo "== $1 $(date +%T) t=$((SECONDS-T0))s load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
W=5s; DUR=15s; [ -n "$SMALL" ] && { W=1s; DUR=2s; }
# A run takes about 30 s a peer, and etcd's watchers may need as long again to drain: 60 s a peer at most.
peers=$(( $(echo $P | tr ',' '\n' | wc -l) + 1 )); TMO=$((60 * peers))
st machine; nproc >> $L; $E --version | head -1 >> $L
ED=$(mktemp -d /tmp/etcd-XXXX)
$E --name perf --data-dir $ED --listen-client-urls http://127.0.0.1:23791 --advertise-client-urls http://127.0.0.1:23791 \
  --listen-peer-urls http://127.0.0.1:23801 --initial-advertise-peer-urls http://127.0.0.1:23801 \
  --initial-cluster perf=http://127.0.0.1:23801 > $O/etcd.log 2>&1 &
EP=$!
for _ in $(seq 1 100); do grep -q "ready to serve client requests" $O/etcd.log && break; sleep 0.1; done
H="$J $FLAGS -cp $D/perf.jar:$D/server.jar io.ringwatch.perf.PerfMain --engine ringwatch-server,etcd --server-script $D/rw-server --etcd-endpoint http://127.0.0.1:23791 --reports-dir $O/r"
run() { local name=$1; shift
  [ $((SECONDS-T0)) -lt $((BUDGET-TMO)) ] || { echo "== skip $name: $((SECONDS-T0))s used" >> $L; return; }
  st $name; timeout $TMO $H --data-dir "$(mktemp -d /tmp/rw-XXXX)" --persistence $P "$@" --warmup $W --duration $DUR --name $name > $O/$name.txt 2>&1
  sed -n '/write-to-listener latency/,/^$/p;/^peer .*target/,/^$/p;/CPU/p;/ done: /p' $O/$name.txt >> $L; }
for c in ${CLIENTS:-grpc jetcd}; do
  for n in ${CONNECTIONS:-1 4}; do
    run puts-256-$c-c$n --etcd-client $c --etcd-connections $n --saturate --watchers 100
  done
  for n in ${CONNECTIONS:-1 4}; do
    for p in ${PUMPS:-default}; do
      if [ "$p" = default ]; then unset RINGWATCH_SERVER_ARGS; sfx=; else export RINGWATCH_SERVER_ARGS="--watch-pumps $p"; sfx=-p$p; fi
      run events-100-$c-c$n$sfx --etcd-client $c --etcd-connections $n --saturate --watchers 100 --fanout 100
    done
    unset RINGWATCH_SERVER_ARGS
  done
done
run lat-2k --etcd-client grpc --rate 2000 --watchers 100
kill $EP; wait $EP 2>/dev/null
st end
tar -czf $O/r.tgz -C $O r && rm -rf $O/r
