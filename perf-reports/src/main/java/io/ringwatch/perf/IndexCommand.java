package io.ringwatch.perf;

import io.ringwatch.perf.report.ReportIndex;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code index DIR}: rewrites the index page of a reports directory from the runs it holds.
 */
@CommandLine.Command(name = "index", mixinStandardHelpOptions = true,
    description = "Rewrite DIR/index.html listing every run directory under DIR.")
final class IndexCommand implements Callable<Integer>
{
    @CommandLine.Parameters(index = "0", paramLabel = "DIR", description = "the reports directory")
    private Path reportsDir;

    @Override
    public Integer call() throws Exception
    {
        System.out.println("wrote " + ReportIndex.write(reportsDir));
        return 0;
    }
}
