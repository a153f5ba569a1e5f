package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class UnknownCommandTest
{
    private static final List<String> COMMANDS = List.of("list", "print", "state", "verify", "republish");

    @Test
    void aMisspelledCommandIsNamedWithTheNearestCommandAndTheListAndExitsWithUsage()
    {
        final HistoryFixture.Run run = HistoryFixture.run("lst", "/tmp");

        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertEquals("ringwatch-replay: unknown command 'lst'; did you mean 'list'? Commands: list, print, state, verify, republish",
            run.err().strip());
        assertEquals("", run.out());
    }

    @Test
    void aWordNearNoCommandGetsTheListWithoutASuggestion()
    {
        final HistoryFixture.Run run = HistoryFixture.run("frobnicate");

        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertEquals("ringwatch-replay: unknown command 'frobnicate' Commands: list, print, state, verify, republish",
            run.err().strip());
    }

    @Test
    void suggestionsComeFromEditDistanceOrAPrefix()
    {
        assertEquals("verify", UnknownCommand.suggest("verfiy", COMMANDS));
        assertEquals("republish", UnknownCommand.suggest("rep", COMMANDS));
        assertEquals("print", UnknownCommand.suggest("PRINT", COMMANDS));
        assertEquals("state", UnknownCommand.suggest("stat", COMMANDS));
        assertNull(UnknownCommand.suggest("compact", COMMANDS));
        assertEquals(3, UnknownCommand.distance("kitten", "sitting"));
    }

    @Test
    void anUnknownOptionOfAKnownCommandIsStillReportedAsAnOption()
    {
        final HistoryFixture.Run run = HistoryFixture.run("list", "/tmp", "--bogus");

        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().startsWith("ringwatch-replay list: Unknown option: '--bogus'"), run.err());
    }
}
