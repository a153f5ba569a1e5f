package io.ringwatch.persistence;

import io.ringwatch.engine.JvmFlags;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM flags Chronicle Queue needs beyond the engine's own ({@link JvmFlags#MISC}), which
 * {@link LogConfig#requiredJvmFlags()} hands to the engine's check at open:
 * <table>
 * <caption>flags</caption>
 * <tr><th>JDK 17 to 23</th><th>JDK 24+</th></tr>
 * <tr><td>{@value #NIO} {@value #REFLECT} {@value #REF}</td>
 * <td>those three and {@link JvmFlags#NATIVE}, {@link JvmFlags#UNSAFE}</td></tr>
 * </table>
 * On JDK 24+ the last two keep the JVM from printing warnings for Chronicle's native libraries and
 * its {@code sun.misc.Unsafe} memory access (a later JDK denies them). Stateless; any thread.
 */
public final class ChronicleJvmFlags
{
    /** Chronicle Queue's memory mapping. */
    public static final String NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    /** Chronicle Queue's reflection. */
    public static final String REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    /** Chronicle Queue's cleaner. */
    public static final String REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";

    /** The JDK from which {@link JvmFlags#NATIVE} and {@link JvmFlags#UNSAFE} are needed. */
    static final int WARNING_JDK = 24;

    private ChronicleJvmFlags()
    {
    }

    /**
     * @return Chronicle Queue's flags for the running JDK, in command-line form; a new list.
     */
    public static List<String> required()
    {
        final List<String> flags = new ArrayList<>(List.of(NIO, REFLECT, REF));
        if (Runtime.version().feature() >= WARNING_JDK)
        {
            flags.add(JvmFlags.NATIVE);
            flags.add(JvmFlags.UNSAFE);
        }
        return flags;
    }
}
