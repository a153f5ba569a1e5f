package io.ringwatch.replay;

import picocli.CommandLine;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Measures {@code print}'s lines per second into a file inside one JVM, so that the JVM's start
 * and Chronicle's class loading (about 1.8 s on the team's VM, whatever the log's size) are
 * reported apart from the walk: each run opens the log, prints every revision into the file
 * through the tool's own output writer and closes it. Run with the test classpath:
 * {@code java $(cat target/jvm.flags) -cp target/test-classes:target/ringwatch-replay.jar
 * io.ringwatch.replay.PrintRate <dir> <out file> [runs]}; prints one line per run.
 */
final class PrintRate
{
    private PrintRate()
    {
    }

    /**
     * @param args the log directory, the output file, and how many runs (default 5).
     * @throws IOException if the output file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        for (int run = 1; run <= runs; run++)
        {
            try (FileOutputStream file = new FileOutputStream(args[1]))
            {
                final PrintWriter out = new ToolOut(file, 1 << 16);
                final CommandLine commandLine = ReplayMain.commandLine();
                commandLine.setOut(out);
                commandLine.setErr(new PrintWriter(new StringWriter()));
                final long start = System.nanoTime();
                final int code = commandLine.execute("print", args[0]);
                out.flush();
                final long nanos = System.nanoTime() - start;
                final long lines = java.nio.file.Files.lines(java.nio.file.Path.of(args[1])).count();
                System.out.printf("run %d: exit %d, %,d lines in %.3f s: %,.0f lines/s%n",
                    run, code, lines, nanos / 1e9, lines / (nanos / 1e9));
            }
        }
    }
}
