#!/bin/bash
# Issue bounds on the device, no older build: the big read 8 times (17), the harness at 200,000 and 2,000 writes/s with the
# Disruptor floor (16), the saturated in-memory burst, the one-producer pipeline against the locked design and the rings,
# SYNC against raw Chronicle at the engine's batch sizes; skips what no longer fits BUDGET seconds.
# Usage on the device (after pack.sh here): BUDGET=330 .device/bounds.sh $OUT   (locally: .device/bounds.sh /tmp/out small)
O=${1:-/tmp/outa}; SMALL=$2; mkdir -p $O/r
D=$(cd $(dirname $0) && pwd)
[ -x /tmp/jre/bin/java ] || tar -xJf $D/jre.tar.xz -C /tmp
J=/tmp/jre/bin/java
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
NP=$D/perf.jar; NB=$D/bench.jar
L=$O/log.txt; T0=$SECONDS; BUDGET=${BUDGET:-330}
st() { echo "== $1 $(date +%T) t=$((SECONDS-T0))s load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
ok() { [ $((SECONDS-T0)) -lt $((BUDGET-$1)) ] || { echo "== skip: $((SECONDS-T0))s used" >> $L; return 1; }; }
K=1000000; R=20; A=0.5; W=5s; DUR=20s; TW=10s; TD=30s; JI="-wi 2 -i 5 -w 1s -r 1s"; N=8
[ -n "$SMALL" ] && { K=20000; R=2; A=0.2; W=1s; DUR=2s; TW=1s; TD=2s; JI="-wi 0 -i 1 -w 1s -r 1s"; N=1; }
st machine; nproc >> $L; grep -m1 "model name" /proc/cpuinfo >> $L
for i in $(seq 1 $N); do ok 20 || break; st biglist-$i
  timeout 40 $J $FLAGS -Xmx8g -cp $NP io.ringwatch.perf.biglist.BigListBenchmark --keys $K --reads $R --alone-seconds $A 2>&1 | grep -E 'reads ok|writer|idle|collections' >> $L; done
H="$J $FLAGS -jar $NP --reports-dir $O/r"
ok 60 && { st harness-200k; timeout 90 $H --engine ringwatch,disruptor --rate 200000 --warmup $W --duration $DUR --name device16-200k 2>&1 | sed -n '/write-to-listener latency/,/^$/p;/^peer .*target/,/^$/p;/CPU/p' >> $L; }
for i in 1 2; do ok 90 || break; st tail-2k-$i; timeout 110 $H --engine ringwatch,disruptor --rate 2000 --warmup $TW --duration $TD --name device16-2k-$i 2>&1 | sed -n '/write-to-listener latency/,/^$/p;/CPU/p' >> $L; done
ok 40 && { st burst; timeout 60 $H --engine ringwatch --saturate --producers 4 --watchers 1000 --blocked-listeners 0 --warmup $W --duration $DUR --name device16-burst 2>&1 | grep -E 'done:|cancelled|note:|^peer .*target' -A2 | head -12 >> $L; }
ok 45 && { st jmh-1p; timeout 60 $J $FLAGS -Djmh.ignoreLock=true -cp $NB org.openjdk.jmh.Main 'WriteBenchmark.(ringWatch|lockedQueues|disruptor)$' -p storage=MEMORY -p pacing=SLIDING -p waitStrategy=WAKEABLE -f 1 $JI 2>&1 | grep -E '^WriteBenchmark' >> $L; }
ok 50 && { st jmh-sync; timeout 80 $J $FLAGS -Djmh.ignoreLock=true -cp $NB org.openjdk.jmh.Main 'WriteBenchmark.(ringWatch|rawChronicle)$' -p storage=SYNC -p durability=SYNC -p syncEvery=128,256,512 -p pacing=SLIDING -p watched=false -f 1 -wi 2 -i 3 -w 1s -r 1s 2>&1 | grep -E '^WriteBenchmark|journal:' >> $L; rm -rf jmh/target/persistence-data; }
st end
tar -czf $O/r.tgz -C $O r && rm -rf $O/r
