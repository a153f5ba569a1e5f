package io.ringwatch.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library prints nothing itself: every message goes through SLF4J, where the application
 * decides. Checked on the sources, since a print on a rare path (an error handler) would not show
 * in a run.
 */
class NoConsoleOutputTest
{
    private static final Pattern CONSOLE = Pattern.compile("System\\.(out|err)\\b|printStackTrace\\(|System\\.console\\(");

    @Test
    void noMainSourceOfTheEngineWritesToStdoutOrStderr() throws IOException
    {
        final Path sources = Path.of("src/main/java");
        assertTrue(Files.isDirectory(sources), "run from the engine module: " + sources.toAbsolutePath());
        try (Stream<Path> files = Files.walk(sources))
        {
            final List<String> offenders = files.filter(p -> p.toString().endsWith(".java"))
                .flatMap(NoConsoleOutputTest::offendingLines)
                .toList();
            assertEquals(List.of(), offenders);
        }
    }

    private static Stream<String> offendingLines(final Path file)
    {
        try
        {
            final List<String> lines = Files.readAllLines(file);
            return java.util.stream.IntStream.range(0, lines.size())
                .filter(i -> CONSOLE.matcher(lines.get(i)).find() && !lines.get(i).trim().startsWith("*"))
                .mapToObj(i -> file + ":" + (i + 1) + ": " + lines.get(i).trim());
        }
        catch (final IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
