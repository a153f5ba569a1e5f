#!/bin/bash
# A device A/B in one call: the big-read benchmark (an older engine under the new benchmark class, and the new
# one, alternating), WriteBenchmark SLIDING with its baselines and -prof gc, the write pipeline old/new
# alternating, FanOutBenchmark at 1,000 watchers against a second older build, and the harness at 200,000
# and 2,000 writes/s with the Disruptor floor. Usage on the device, after pack.sh OLD_PERF_JAR OLD_BENCH_JAR
# here and, for the fan-out's older build, `classesOnly`'s copy of its benchmarks jar as .device/bench-fan-rw.jar:
#   BUDGET=400 .device/ab.sh $OUT        (here, a quick check: .device/ab.sh /tmp/out small)
O=${1:-/tmp/out}; mkdir -p $O/r
D=$(cd $(dirname $0) && pwd)
[ -x /tmp/jre/bin/java ] || tar -xJf $D/jre.tar.xz -C /tmp
J=/tmp/jre/bin/java
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
NP=$D/perf.jar; NB=$D/bench.jar; OB=$D/bench-old-rw.jar:$D/bench.jar; FB=$D/bench-fan-rw.jar:$D/bench.jar
# The older engine under the new benchmark classes (pack.sh makes it: its io.ringwatch classes without io/ringwatch/perf).
OE=$D/perf-old-engine.jar
L=$O/log.txt; T0=$SECONDS; BUDGET=${BUDGET:-400}
K=1000000; JI="-wi 2 -i 3 -w 1s -r 1s"; FI="-wi 2 -i 5 -w 1s -r 1s"; W=5s; DUR=20s
[ "$2" = small ] && { K=20000; JI="-wi 0 -i 1 -w 1s -r 1s"; FI=$JI; W=1s; DUR=2s; }
st() { echo "== $1 $(date +%T) t=$((SECONDS-T0))s load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
ok() { [ $((SECONDS-T0)) -lt $((BUDGET-$1)) ] || { echo "== skip: $((SECONDS-T0))s used" >> $L; return 1; }; }
st machine; nproc >> $L
for i in 1 2 3; do for who in old new; do ok 25 || break 2; st biglist-$who-$i; cp=$NP; [ $who = old ] && cp=$OE:$NP
  timeout 45 $J $FLAGS -Xmx8g -Xlog:gc:file=$O/r/gc-$who-$i.log -cp $cp io.ringwatch.perf.biglist.BigListBenchmark --keys $K --reads 10 --alone-seconds 0.5 2>&1 | grep -E 'reads ok|writer|idle|collections' >> $L; done; done
ok 100 && { st jmh-new-full; timeout 130 $J $FLAGS -Djmh.ignoreLock=true -cp $NB org.openjdk.jmh.Main 'WriteBenchmark.(ringWatch|ringWatch2Producers|ringWatch4Producers|lockedQueues|lockedQueues2Producers|lockedQueues4Producers|disruptor)$' -p storage=MEMORY -p pacing=SLIDING -p waitStrategy=WAKEABLE,BUSY_SPIN -f 1 $JI -prof gc 2>&1 | grep -E '^WriteBenchmark' | grep -v -E 'churn|gc.count|gc.time|alloc.rate ' >> $L; }
for who in old new; do ok 30 || break; st jmh-$who; cp=$NB; [ $who = old ] && cp=$OB
  timeout 60 $J $FLAGS -Djmh.ignoreLock=true -cp $cp org.openjdk.jmh.Main 'WriteBenchmark.(ringWatch|ringWatch2Producers|ringWatch4Producers)$' -p storage=MEMORY -p pacing=SLIDING -f 1 $JI 2>&1 | grep -E '^WriteBenchmark' >> $L; done
for i in 1 2; do for who in fan new; do ok 20 || break 2; st fanout-$who-$i; cp=$NB; [ $who = fan ] && cp=$FB
  timeout 40 $J $FLAGS -Djmh.ignoreLock=true -cp $cp org.openjdk.jmh.Main 'fanout.FanOutBenchmark.ringWatch$' -p watchers=1000 -f 1 $FI 2>&1 | grep -E '^FanOut' | grep -v delivered >> $L; done; done
ok 50 && { st harness-200k; timeout 60 $J $FLAGS -jar $NP --engine ringwatch,disruptor --rate 200000 --warmup $W --duration $DUR --reports-dir $O/r/rep --name device16-200k 2>&1 | sed -n '/write-to-listener latency/,/^$/p;/CPU/p' >> $L; }
ok 45 && { st tail-2k; timeout 60 $J $FLAGS -jar $NP --engine ringwatch,disruptor --rate 2000 --warmup $W --duration $DUR --reports-dir $O/r/rep --name device16-2k 2>&1 | sed -n '/write-to-listener latency/,/^$/p;/CPU/p' >> $L; }
st end
tar -czf $O/r.tgz -C $O r && rm -rf $O/r
