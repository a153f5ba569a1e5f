package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.MissingJvmFlagsException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.Persistence;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The check at open asks the persistence it is given for its flags: one that needs none (a journal
 * of the application's own) needs only Agrona's export, one naming a flag this JVM lacks is refused
 * before its journal is opened, and a flag the check cannot read is a typed error. The child-JVM
 * tests of the Chronicle log's flags are in the persistence module ({@code JvmFlagsTest}).
 */
class JvmFlagsCheckTest
{
    /** Exported by no test run: the build's flags do not grant it. */
    private static final String ABSENT = "--add-exports=java.base/sun.security.x509=ALL-UNNAMED";

    @Test
    void aPersistenceThatNamesNoFlagNeedsOnlyAgronasExportAndOpens()
    {
        final InMemoryJournal journal = new InMemoryJournal(64, false);
        final Persistence own = name -> journal;
        assertEquals(List.of(JvmFlags.MISC), JvmFlags.required(own));
        assertEquals(List.of(JvmFlags.MISC), JvmFlags.required(null));
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(own).build()))
        {
            assertEquals(1, engine.put("k", "v").revision());
        }
    }

    @Test
    void aFlagTheJvmLacksIsRefusedBeforeTheJournalOpensAndNamedOnce()
    {
        final Flagged persistence = new Flagged(List.of(JvmFlags.MISC, ABSENT));
        assertEquals(List.of(JvmFlags.MISC, ABSENT), JvmFlags.required(persistence), "MISC is listed once");
        final MissingJvmFlagsException e = assertThrows(MissingJvmFlagsException.class,
            () -> RingWatch.open(RingWatchConfig.builder().persistence(persistence).build()));
        assertEquals(List.of(ABSENT), e.missingFlags());
        assertEquals(List.of(JvmFlags.MISC, ABSENT), e.requiredFlags());
        assertTrue(e.getMessage().contains("a persistent engine"), e.getMessage());
        assertEquals(0, persistence.opens.get(), "the journal was never opened");
    }

    @Test
    void aFlagOfAFormTheCheckCannotReadIsATypedErrorBeforeAnythingOpens()
    {
        final Flagged persistence = new Flagged(List.of("-XX:+UseG1GC"));
        final InvalidRequestException e = assertThrows(InvalidRequestException.class,
            () -> RingWatch.open(RingWatchConfig.builder().persistence(persistence).build()));
        assertTrue(e.getMessage().contains("-XX:+UseG1GC"), e.getMessage());
        assertEquals(0, persistence.opens.get());
    }

    @Test
    void withTheCheckOffTheFlagsAreNotAsked()
    {
        final Flagged persistence = new Flagged(List.of(ABSENT));
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().checkJvmFlags(false).persistence(persistence).build()))
        {
            assertEquals(1, engine.put("k", "v").revision());
        }
        assertEquals(1, persistence.opens.get());
    }

    /** A persistence over an in-memory journal that names the flags it is given. */
    private static final class Flagged implements Persistence
    {
        private final List<String> flags;
        private final AtomicInteger opens = new AtomicInteger();

        Flagged(final List<String> flags)
        {
            this.flags = flags;
        }

        @Override
        public Journal openJournal(final String engineName)
        {
            opens.incrementAndGet();
            return new InMemoryJournal(64, false);
        }

        @Override
        public List<String> requiredJvmFlags()
        {
            return flags;
        }
    }
}
