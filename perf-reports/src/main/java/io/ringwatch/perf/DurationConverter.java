package io.ringwatch.perf;

import picocli.CommandLine;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations such as {@code 500ms}, {@code 40s}, {@code 2m} or {@code 1h} for picocli (also
 * ISO-8601, {@code PT40S}). Stateless.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration>
{
    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(final String value)
    {
        final Matcher m = SHORT.matcher(value.trim());
        if (m.matches())
        {
            final long amount = Long.parseLong(m.group(1));
            switch (m.group(2))
            {
                case "ms":
                    return Duration.ofMillis(amount);
                case "s":
                    return Duration.ofSeconds(amount);
                case "m":
                    return Duration.ofMinutes(amount);
                default:
                    return Duration.ofHours(amount);
            }
        }
        try
        {
            return Duration.parse(value.trim());
        }
        catch (final RuntimeException e)
        {
            throw new CommandLine.TypeConversionException("not a duration (try 500ms, 40s, 2m): " + value);
        }
    }
}
