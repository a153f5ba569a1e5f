package io.ringwatch.replay;

import java.util.List;
import java.util.Locale;

/**
 * The message for a command line whose first word names no command:
 * {@code ringwatch-replay: unknown command 'lst'; did you mean 'list'? Commands: list, print, ...}.
 * The suggestion is the command nearest by edit distance (at most two edits) or the one the word
 * is a prefix of. Stateless; any thread; allocates the message.
 */
final class UnknownCommand
{
    private static final int MAX_EDITS = 2;

    private UnknownCommand()
    {
    }

    /**
     * The one-line message.
     *
     * @param tool     the tool's name.
     * @param word     what was typed where a command belongs.
     * @param commands the command names, in display order.
     * @return the message, without a line end.
     */
    static String message(final String tool, final String word, final List<String> commands)
    {
        final String suggestion = suggest(word, commands);
        return tool + ": unknown command '" + word + "'" +
            (suggestion == null ? "" : "; did you mean '" + suggestion + "'?") +
            " Commands: " + String.join(", ", commands);
    }

    /**
     * The command {@code word} most likely meant.
     *
     * @param word     what was typed.
     * @param commands the command names.
     * @return the nearest command within two edits (a prefix match counts as near), or null.
     */
    static String suggest(final String word, final List<String> commands)
    {
        String best = null;
        int bestDistance = MAX_EDITS + 1;
        for (final String command : commands)
        {
            final int distance = !word.isEmpty() && command.startsWith(word) ? 0 : distance(word, command);
            if (distance < bestDistance)
            {
                best = command;
                bestDistance = distance;
            }
        }
        return best;
    }

    /**
     * Levenshtein distance (insertions, deletions, substitutions), case-insensitive.
     */
    static int distance(final String a, final String b)
    {
        final String x = a.toLowerCase(Locale.ROOT);
        final String y = b.toLowerCase(Locale.ROOT);
        int[] previous = new int[y.length() + 1];
        int[] current = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= y.length(); j++)
            {
                final int substitution = previous[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[y.length()];
    }
}
