package io.ringwatch.perf;

import picocli.CommandLine;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Reads an enum constant from its lower-case, dashed command-line name ({@code busy-spin} for
 * {@code BUSY_SPIN}); an unknown name is refused with the list of known ones. Stateless.
 *
 * @param <E> the enum.
 */
final class DashedEnumConverter<E extends Enum<E>> implements CommandLine.ITypeConverter<E>
{
    private final Class<E> type;

    DashedEnumConverter(final Class<E> type)
    {
        this.type = type;
    }

    @Override
    public E convert(final String value)
    {
        final String constant = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final E e : type.getEnumConstants())
        {
            if (e.name().equals(constant))
            {
                return e;
            }
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not one of " + names(type));
    }

    static <E extends Enum<E>> String names(final Class<E> type)
    {
        return Arrays.stream(type.getEnumConstants()).map(DashedEnumConverter::name).collect(Collectors.joining(", "));
    }

    static String name(final Enum<?> e)
    {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
