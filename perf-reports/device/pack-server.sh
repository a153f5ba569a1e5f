#!/bin/bash
# Packs the etcd comparison (issue 14) into .device/server/ (git-ignored): the server's jar and the harness's classes that
# the server's jar lacks (one class path, about 34 MB; other platforms' natives left out), etcd 3.4 (xz), and the scripts.
# With .device/jre.tar.xz (pack.sh) it fits the 64 MiB a call carries. From the repository root, after
#   mvn -B -pl server,perf-reports -am package -DskipTests      and Debian's etcd-server installed:
#   perf-reports/device/pack-server.sh
set -e
out=.device/server; mkdir -p $out
python3 - "$out" <<'PY'
import sys, zipfile
out = sys.argv[1]
server = zipfile.ZipFile('server/target/ringwatch-server.jar')
perf = zipfile.ZipFile('perf-reports/target/ringwatch-perf.jar')
other = ['osx', 'windows', 'win32', 'darwin', 'aix', 'sunos', 'freebsd', 'openbsd', 'netbsd', 'dragonfly', 'linux-arm',
         'aarch64', 'ppc', 's390', 'riscv', 'loong', 'mips', 'linux-x86/', 'i386', 'arm-linux', 'sparc']
def wanted(name):
    return not name.startswith('META-INF/maven/') and not any(o in name.lower() for o in other)
def thin(source, target, keep):
    seen = set()
    with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as jar:
        for entry in source.infolist():
            if entry.filename not in seen and wanted(entry.filename) and keep(entry.filename):
                seen.add(entry.filename)
                jar.writestr(entry, source.read(entry.filename))
in_server = set(server.namelist())
thin(server, out + '/server.jar', lambda name: True)
# Service files are read from every jar on the class path, so the harness keeps its own (jetcd's name resolver).
thin(perf, out + '/perf.jar', lambda name: name not in in_server or name.startswith('META-INF/services/'))
PY
xz -T2 -9 -c "$(command -v etcd)" > $out/etcd.xz
cp perf-reports/device/rw-server perf-reports/device/server-vs-etcd.sh $out/
du -sh $out
