#!/bin/bash
# Packs what a device run needs into .device/ (git-ignored) at the repository root: a jlink'ed JDK 17
# (xz, about 18 MB), the harness and JMH jars without the etcd client, gRPC, Netty, Guava and other
# platforms' natives (about 20 MB), and, for A/B runs, an older build's io.ringwatch classes only
# (put first on the classpath, they replace the new ones and reuse the new jars' libraries).
# Usage, from the repository root after `mvn -B -pl jmh,perf-reports -am package -DskipTests`:
#   perf-reports/device/pack.sh [OLD_PERF_JAR OLD_BENCH_JAR]
set -e
out=.device; mkdir -p $out
jdk=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
strip() {
  cp "$1" "$2"
  zip -q -d "$2" 'io/netty/*' 'io/grpc/*' 'io/etcd/*' 'io/vertx/*' 'com/google/*' 'dev/failsafe/*' 'com/fasterxml/*' \
    'META-INF/maven/*' 'com/sun/jna/win32*' 'com/sun/jna/aix*' 'com/sun/jna/darwin*' 'com/sun/jna/sunos*' \
    'com/sun/jna/freebsd*' 'com/sun/jna/openbsd*' 'com/sun/jna/linux-x86/*' 'com/sun/jna/linux-arm*' \
    'com/sun/jna/linux-aarch64*' 'com/sun/jna/linux-ppc*' 'com/sun/jna/linux-mips*' 'com/sun/jna/linux-s390x*' \
    'com/sun/jna/linux-riscv*' 'com/sun/jna/linux-loong*' 'jni/*-SunOS/*' 'jni/arm-*' 'jni/loongarch*' 'jni/i386*' \
    'jni/sparc*' 'jni/*BSD*' 'jni/ppc*' 'jni/*Windows*' 'jni/*Darwin*' 'jni/*AIX*' 'jni/aarch64*' 'jni/mips*' \
    'jni/s390x*' 'jni/riscv*' > /dev/null 2>&1 || true
}
classesOnly() {
  local dir; dir=$(mktemp -d)
  (cd "$dir" && unzip -q "$1" 'io/ringwatch/*' 'META-INF/BenchmarkList' 'META-INF/CompilerHints' 2>/dev/null || true)
  (cd "$dir" && zip -q -r "$2" .); rm -rf "$dir"
}
if [ ! -f $out/jre.tar.xz ]; then
  rm -rf /tmp/ringwatch-jre
  $jdk/bin/jlink --add-modules java.base,java.compiler,java.desktop,java.naming,java.sql,jdk.management,jdk.unsupported,java.logging,java.management,jdk.jfr,jdk.management.jfr,java.instrument,jdk.zipfs,jdk.crypto.ec,jdk.jcmd,jdk.attach \
    --strip-debug --no-header-files --no-man-pages --output /tmp/ringwatch-jre/jre
  tar -cJf $out/jre.tar.xz -C /tmp/ringwatch-jre jre
fi
strip perf-reports/target/ringwatch-perf.jar $out/perf.jar
strip jmh/target/benchmarks.jar $out/bench.jar
if [ -n "$2" ]; then
  classesOnly "$(realpath "$1")" "$(realpath $out)/perf-old-rw.jar"
  classesOnly "$(realpath "$2")" "$(realpath $out)/bench-old-rw.jar"
  # The older engine under the new benchmark classes (ab.sh's big read): without io/ringwatch/perf. The device has no zip.
  cp $out/perf-old-rw.jar $out/perf-old-engine.jar && zip -q -d $out/perf-old-engine.jar 'io/ringwatch/perf/*' > /dev/null
fi
cp perf-reports/device/run.sh perf-reports/device/ab.sh perf-reports/device/bounds.sh $out/
# async-profiler's agent for the profile step (from tools.profiler:async-profiler), if at hand
ap=${ASYNC_PROFILER_LIB:-/tmp/ap/linux-x64/libasyncProfiler.so}
[ -f "$ap" ] && cp "$ap" $out/
du -sh $out
