package io.ringwatch.perf.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a run happened: the machine, the JDK, the JVM's arguments and the source revision.
 * Immutable; {@link #capture()} reads /proc and runs {@code git}, so call it once per run.
 *
 * @param cores          processors the JVM sees.
 * @param memoryBytes    physical memory (0 if unknown).
 * @param cpuModel       the CPU model name, or "unknown".
 * @param os             the operating system and kernel.
 * @param jdk            the Java runtime's vendor, name and version.
 * @param jvmArguments   the JVM's input arguments.
 * @param gitCommit      {@code git rev-parse HEAD} (with "-dirty" when the tree has changes), or "unknown".
 * @param loadAverage    the 1-minute load average when the run started (others sharing the machine show here).
 */
public record MachineInfo(
    int cores, long memoryBytes, String cpuModel, String os, String jdk, List<String> jvmArguments, String gitCommit,
    double loadAverage)
{
    /**
     * @return the machine as it is now.
     */
    public static MachineInfo capture()
    {
        return new MachineInfo(
            Runtime.getRuntime().availableProcessors(),
            readMemoryBytes(),
            readCpuModel(),
            osName(),
            System.getProperty("java.vendor") + " " + System.getProperty("java.vm.name") + " " +
                System.getProperty("java.runtime.version"),
            List.copyOf(ManagementFactory.getRuntimeMXBean().getInputArguments()),
            readGitCommit(),
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /**
     * @return a one-line description of the hardware.
     */
    public String hardware()
    {
        return cores + " cores (" + cpuModel + "), " + (memoryBytes >> 20) + " MiB memory";
    }

    private static long readMemoryBytes()
    {
        for (final String line : lines(Path.of("/proc/meminfo")))
        {
            if (line.startsWith("MemTotal:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return 0;
    }

    private static String readCpuModel()
    {
        for (final String line : lines(Path.of("/proc/cpuinfo")))
        {
            if (line.startsWith("model name"))
            {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "unknown";
    }

    private static String osName()
    {
        String pretty = System.getProperty("os.name");
        for (final String line : lines(Path.of("/etc/os-release")))
        {
            if (line.startsWith("PRETTY_NAME="))
            {
                pretty = line.substring("PRETTY_NAME=".length()).replace("\"", "");
            }
        }
        return pretty + ", kernel " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    }

    private static String readGitCommit()
    {
        final String head = run("git", "rev-parse", "HEAD");
        if (head.isEmpty())
        {
            return "unknown";
        }
        return run("git", "status", "--porcelain", "--untracked-files=no").isEmpty() ? head : head + "-dirty";
    }

    private static String run(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                return "";
            }
            return out;
        }
        catch (final IOException e)
        {
            return "";
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            return List.of();
        }
    }
}
