package io.ringwatch.engine.acceptance;

import io.ringwatch.engine.internal.durable.ChildJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.persistence.LogConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, "What was seen" item 2: two engines on one directory both opened, both acknowledged
 * revision 2, and the log kept one of them. The second open must be refused with a typed error
 * that names the holder (its process id), in one JVM and from a second process, and no
 * acknowledged write of the first may be lost.
 */
class TwoOwnersTest
{
    private static final int PUTS = 50;

    private static RingWatchConfig sync(final Path dir)
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(0).build();
    }

    /** Issue 12 item 2, one JVM: the second open is refused naming this process, the first loses nothing. */
    @Test
    void aSecondEngineInTheSameJvmIsRefusedNamingTheHolderAndTheFirstLosesNothing(@TempDir final Path dir)
    {
        final RingWatch first = RingWatch.open(sync(dir));
        try
        {
            for (int i = 0; i < PUTS; i++)
            {
                assertEquals(i + 1, first.put("/first/" + i, "f" + i).revision());
            }
            RingWatch second = null;
            try
            {
                second = RingWatch.open(sync(dir));
                final long revision = second.put("/second/0", "s0").revision();
                fail("a second engine opened the directory the first holds and acknowledged revision " + revision);
            }
            catch (final RuntimeException refused)
            {
                assertNamesHolder(refused.getClass().getName() + " " + refused.getMessage(), ProcessHandle.current().pid());
            }
            finally
            {
                if (second != null)
                {
                    second.close();
                }
            }
            for (int i = PUTS; i < 2 * PUTS; i++)
            {
                assertEquals(i + 1, first.put("/first/" + i, "f" + i).revision());
            }
        }
        finally
        {
            first.close();
        }
        assertAllThere(dir, "/first/", "f", 2 * PUTS);
    }

    /** Issue 12 item 2, a second process tries while this one holds the directory. */
    @Test
    void aSecondProcessIsRefusedNamingTheHolderAndTheFirstLosesNothing(@TempDir final Path dir) throws Exception
    {
        final RingWatch first = RingWatch.open(sync(dir));
        try
        {
            for (int i = 0; i < PUTS; i++)
            {
                first.put("/first/" + i, "f" + i);
            }
            final List<String> lines = runToEnd(ChildJvm.start(DirectoryOwnerChild.class, "try", dir.toString()));
            assertTrue(!lines.isEmpty() && lines.get(0).startsWith("refused "),
                "the second process was not refused: " + lines);
            assertNamesHolder(lines.get(0), ProcessHandle.current().pid());
            for (int i = PUTS; i < 2 * PUTS; i++)
            {
                first.put("/first/" + i, "f" + i);
            }
        }
        finally
        {
            first.close();
        }
        assertAllThere(dir, "/first/", "f", 2 * PUTS);
    }

    /** Issue 12 item 2, the other way round: another process holds it and this one is refused. */
    @Test
    void thisProcessIsRefusedWhileAnotherHoldsTheDirectoryAndTheOtherLosesNothing(@TempDir final Path dir) throws Exception
    {
        final Process child = ChildJvm.start(DirectoryOwnerChild.class, "hold", dir.toString(), Integer.toString(PUTS));
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8))
        {
            int acks = 0;
            String line;
            while ((line = out.readLine()) != null && !"ready".equals(line))
            {
                acks += line.startsWith("ack ") ? 1 : 0;
            }
            assertEquals(PUTS, acks, "the holder did not start");
            RingWatch second = null;
            try
            {
                second = RingWatch.open(sync(dir));
                fail("this process opened a directory another process holds");
            }
            catch (final RuntimeException refused)
            {
                assertNamesHolder(refused.getClass().getName() + " " + refused.getMessage(), child.pid());
            }
            finally
            {
                if (second != null)
                {
                    second.close();
                }
            }
            in.write("go on\n");
            in.flush();
            while ((line = out.readLine()) != null && !"closed".equals(line))
            {
                acks += line.startsWith("ack ") ? 1 : 0;
            }
            assertEquals(2 * PUTS, acks, "the holder's acknowledgements");
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the holder did not end");
        }
        finally
        {
            child.destroyForcibly();
        }
        assertAllThere(dir, "/child/", "c", 2 * PUTS);
    }

    private static void assertNamesHolder(final String refusal, final long pid)
    {
        assertTrue(refusal.contains(Long.toString(pid)), "the refusal does not name the holder (pid " + pid + "): " + refusal);
        assertTrue(!refusal.contains("java.lang.InternalError") && !refusal.startsWith("java.lang.Error"),
            "not a typed refusal: " + refusal);
    }

    private static void assertAllThere(final Path dir, final String prefix, final String valuePrefix, final int count)
    {
        try (RingWatch reopened = RingWatch.open(sync(dir)))
        {
            assertEquals(count, reopened.count(KeyRange.prefix(prefix)), "acknowledged writes after reopen");
            for (int i = 0; i < count; i++)
            {
                assertEquals(valuePrefix + i, reopened.get(prefix + i).orElseThrow(() -> new AssertionError("lost")).valueAsString());
            }
        }
    }

    private static List<String> runToEnd(final Process child) throws Exception
    {
        final List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                lines.add(line);
            }
        }
        finally
        {
            if (!child.waitFor(60, TimeUnit.SECONDS))
            {
                child.destroyForcibly();
            }
        }
        return lines;
    }
}
