#!/bin/bash
# A device run: the new build against an older one (its io.ringwatch classes first on the classpath), in one call.
# Usage on the device (after pack.sh here): BUDGET=400 .device/run.sh $OUT   (or locally: .device/run.sh /tmp/out small)
O=${1:-/tmp/out}; SMALL=$2; mkdir -p $O/r
D=$(cd $(dirname $0) && pwd)
[ -x /tmp/jre/bin/java ] || tar -xJf $D/jre.tar.xz -C /tmp
J=/tmp/jre/bin/java
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
NP=$D/perf.jar; OP=$D/perf-old-rw.jar:$D/perf.jar; NB=$D/bench.jar; OB=$D/bench-old-rw.jar:$D/bench.jar
L=$O/log.txt; T0=$SECONDS; BUDGET=${BUDGET:-430}
st() { echo "== $1 $(date +%T) t=$((SECONDS-T0))s load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
ok() { [ $((SECONDS-T0)) -lt $((BUDGET-$1)) ] || { echo "== skip: $((SECONDS-T0))s used" >> $L; return 1; }; }
K=1000000; R=20; A=0.5; W=5s; DUR=20s; TW=5s; TD=25s; JI="-wi 2 -i 3 -w 1s -r 1s"; REV=10000000
[ -n "$SMALL" ] && { K=20000; R=2; A=0.2; W=1s; DUR=2s; TW=1s; TD=2s; JI="-wi 0 -i 1 -w 1s -r 1s"; REV=200000; }
st machine; nproc >> $L
for i in 1 2 3; do ok 30 || break; st biglist-$i
  timeout 60 $J $FLAGS -Xmx8g -cp $NP io.ringwatch.perf.biglist.BigListBenchmark --keys $K --reads $R --alone-seconds $A 2>&1 | grep -E 'reads ok|writer|idle' >> $L; done
ok 60 && { st harness-200k; timeout 90 $J $FLAGS -jar $NP --engine ringwatch,disruptor --rate 200000 --warmup $W --duration $DUR --reports-dir $O/r/rep --name device16-200k 2>&1 | sed -n '/write-to-listener latency/,/^$/p;/^peer .*target/,/^$/p;/CPU/p' >> $L; }
RW='WriteBenchmark.(ringWatch|ringWatch2Producers|ringWatch4Producers)$'
BASE='WriteBenchmark.(ringWatch|ringWatch2Producers|ringWatch4Producers|lockedQueues|lockedQueues2Producers|lockedQueues4Producers|disruptor)$'
ok 60 && { st jmh-new-full; timeout 120 $J $FLAGS -Djmh.ignoreLock=true -cp $NB org.openjdk.jmh.Main "$BASE" -p storage=MEMORY -p pacing=SLIDING -p waitStrategy=WAKEABLE,BUSY_SPIN -f 1 $JI -prof gc 2>&1 | grep -E '^WriteBenchmark' | grep -v -E 'churn|gc.count|gc.time|alloc.rate ' >> $L; }
for who in old new; do ok 30 || break; st jmh-$who; cp=$NB; [ $who = old ] && cp=$OB
  timeout 60 $J $FLAGS -Djmh.ignoreLock=true -cp $cp org.openjdk.jmh.Main "$RW" -p storage=MEMORY -p pacing=SLIDING -f 1 $JI 2>&1 | grep -E '^WriteBenchmark' >> $L; done
ok 70 && { st tail-2k; timeout 100 $J $FLAGS -Xlog:gc:file=$O/r/gc-tail.log -jar $NP --engine ringwatch,disruptor --rate 2000 --warmup $TW --duration $TD --reports-dir $O/r/rep --name device16-2k 2>&1 | sed -n '/write-to-listener latency/,/^$/p;/write-ack/,/^$/p;/CPU/p' >> $L; }
for who in new old; do ok 45 || break; st recovery-$who; cp=$NP; [ $who = old ] && cp=$OP
  timeout 80 $J $FLAGS -Xmx8g -cp $cp io.ringwatch.perf.recovery.RecoveryBenchmark --revisions $REV --work-dir /tmp 2>&1 | tail -12 >> $L; done
ok 60 && { st jmh-persist; timeout 90 $J $FLAGS -Djmh.ignoreLock=true -cp $NB org.openjdk.jmh.Main 'WriteBenchmark.(ringWatch|ringWatch4Producers|rawLog|rawChronicle)$' -p storage=ASYNC,SYNC -p durability=ASYNC,SYNC -p pacing=DRAIN -p watched=false -f 1 $JI 2>&1 | grep -E '^WriteBenchmark' >> $L; rm -rf jmh/target/persistence-data; }
[ -f $D/libasyncProfiler.so ] && ok 20 && { st profile; timeout 40 $J $FLAGS -Djmh.ignoreLock=true -cp $NB org.openjdk.jmh.Main 'WriteBenchmark.ringWatch$' -p storage=MEMORY -p pacing=SLIDING -f 1 -wi 2 -i 3 -w 1s -r 1s -jvmArgsAppend "-agentpath:$D/libasyncProfiler.so=start,event=itimer,interval=200us,threads,collapsed,file=$O/r/jmh-prof.collapsed" 2>&1 | grep -E '^WriteBenchmark' >> $L; }
st end
tar -czf $O/r.tgz -C $O r && rm -rf $O/r
