package io.ringwatch.server;

import picocli.CommandLine;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration as etcd's flags take it (Go's {@code time.ParseDuration}): "10m", "1m30s",
 * "100ms", "1.5h", "0"; units ns, us (or µs), ms, s, m and h. Stateless; used by picocli on the
 * thread that parses the command line.
 */
final class GoDuration implements CommandLine.ITypeConverter<Duration>
{
    private static final Pattern WHOLE = Pattern.compile("(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:ns|us|µs|ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)(ns|us|µs|ms|s|m|h)");

    /**
     * @param text the flag's value.
     * @return the duration.
     * @throws CommandLine.TypeConversionException if it is not a Go duration or is negative.
     */
    @Override
    public Duration convert(final String text)
    {
        if ("0".equals(text))
        {
            return Duration.ZERO;
        }
        if (!WHOLE.matcher(text).matches())
        {
            throw new CommandLine.TypeConversionException("not a duration (as 10m, 1m30s, 100ms): " + text);
        }
        BigDecimal nanos = BigDecimal.ZERO;
        final Matcher part = PART.matcher(text);
        while (part.find())
        {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(unitNanos(part.group(2)))));
        }
        return Duration.ofNanos(nanos.longValueExact());
    }

    private static long unitNanos(final String unit)
    {
        switch (unit)
        {
            case "ns":
                return 1;
            case "us":
            case "µs":
                return 1_000;
            case "ms":
                return 1_000_000;
            case "s":
                return 1_000_000_000;
            case "m":
                return 60_000_000_000L;
            default:
                return 3_600_000_000_000L;
        }
    }
}
