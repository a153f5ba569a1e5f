package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.MissingJvmFlagsException;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Starts child JVMs with chosen flags: the check at open must name exactly the flags missing for
 * this JDK before the engine touches Agrona or Chronicle, and must pass with all of them.
 */
class JvmFlagsTest
{
    /** The Chronicle log's persistence, asked only for its flags. */
    private static final LogConfig LOG = LogConfig.builder(Path.of("unused")).build();

    @TempDir
    Path dir;

    @Test
    void theTestJvmHasEveryFlagSoNothingIsMissing()
    {
        assertEquals(List.of(), JvmFlags.missing(JvmFlags.required(LOG)));
        assertEquals(List.of(JvmFlags.MISC), JvmFlags.required(null));
        assertEquals(Runtime.version().feature() >= 24 ? 6 : 4, JvmFlags.required(LOG).size());
    }

    @Test
    void anInMemoryEngineWithoutTheAgronaExportFailsTypedNamingIt() throws Exception
    {
        final String out = run(List.of(), "memory");
        assertTrue(out.startsWith("MissingJvmFlagsException"), out);
        assertTrue(out.contains("missing=[" + JvmFlags.MISC + "]"), out);
    }

    @Test
    void aPersistentEngineNamesEveryChronicleFlagItLacksForThisJdk() throws Exception
    {
        final String out = run(List.of(JvmFlags.MISC), dir.toString());
        assertTrue(out.startsWith("MissingJvmFlagsException"), out);
        final List<String> expected = new ArrayList<>(JvmFlags.required(LOG));
        expected.remove(JvmFlags.MISC);
        assertTrue(out.contains("missing=" + expected), out);
        assertTrue(out.contains("start java with all of: " + String.join(" ", JvmFlags.required(LOG))), out);
        try (var files = Files.list(dir))
        {
            assertEquals(0, files.count(), "nothing was created before the check");
        }
    }

    @Test
    void withEveryFlagForThisJdkBothKindsOfEngineOpenAndTheJvmPrintsNoWarning() throws Exception
    {
        assertEquals("OPENED", run(JvmFlags.required(null), "memory"));
        assertEquals("OPENED", run(JvmFlags.required(LOG), dir.toString()));
    }

    /** Runs {@link Probe} in a child JVM with exactly {@code flags}; returns its whole output, trimmed. */
    private static String run(final List<String> flags, final String target) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(flags);
        command.add("-Dchronicle.analytics.disable=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Probe.class.getName());
        command.add(target);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM did not end");
        return out;
    }

    /** Opens an engine (in memory, or over the directory given) and prints what happened. */
    public static final class Probe
    {
        private Probe()
        {
        }

        /**
         * @param args "memory", or a directory for a persistent engine.
         */
        public static void main(final String[] args)
        {
            final RingWatchConfig.Builder config = RingWatchConfig.builder();
            if (!"memory".equals(args[0]))
            {
                config.persistence(LogConfig.builder(Path.of(args[0])).build());
            }
            try (RingWatch engine = RingWatch.open(config.build()))
            {
                engine.put("k", "v");
                System.out.println("OPENED");
            }
            catch (final MissingJvmFlagsException e)
            {
                System.out.println("MissingJvmFlagsException missing=" + e.missingFlags() + " " + e.getMessage());
            }
        }
    }
}
