package io.ringwatch.replay;

import picocli.CommandLine.Option;

/**
 * The mutually exclusive {@code --key}, {@code --prefix} and {@code --range} options of
 * {@code print} and {@code state}; picocli refuses two of them together. Set by picocli on the
 * command's thread.
 */
final class KeySelection
{
    @Option(names = "--key", paramLabel = "K", description = "Only this key.")
    String key;

    @Option(names = "--prefix", paramLabel = "P", description = "Only keys starting with P.")
    String prefix;

    @Option(names = "--range", paramLabel = "K,END", description = "Only keys in [K, END), unsigned byte order.")
    String range;

    /**
     * The filter the options ask for.
     *
     * @param selection the parsed group, or null when none of its options was given.
     * @return the filter; {@link KeyFilter#all()} when none was given.
     * @throws UsageException if the option's value is malformed.
     */
    static KeyFilter filterOf(final KeySelection selection)
    {
        if (selection == null)
        {
            return KeyFilter.all();
        }
        if (selection.key != null)
        {
            return KeyFilter.key(selection.key);
        }
        if (selection.prefix != null)
        {
            return KeyFilter.prefix(selection.prefix);
        }
        return KeyFilter.range(selection.range);
    }
}
