package io.ringwatch.engine;

import io.ringwatch.engine.errors.MissingJvmFlagsException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM flags an engine needs, and the check {@link RingWatch#open(RingWatchConfig)} makes that
 * they are present. Every engine needs {@value #MISC}, for Agrona's {@code UnsafeBuffer}; a
 * persistent one also needs Chronicle Queue's three ({@value #NIO}, {@value #REFLECT},
 * {@value #REF}) and, on JDK 24 and later, {@value #NATIVE} and {@value #UNSAFE} (else the JVM
 * prints warnings, and a later JDK denies the access):
 * <table>
 * <caption>flags</caption>
 * <tr><th></th><th>JDK 17 to 23</th><th>JDK 24+</th></tr>
 * <tr><td>in memory</td><td>{@value #MISC}</td><td>the same</td></tr>
 * <tr><td>persistent</td><td>and the three of Chronicle</td><td>and {@value #NATIVE}, {@value #UNSAFE}</td></tr>
 * </table>
 * Checked by asking the JVM, not by reading the command line, so flags given through
 * {@code JDK_JAVA_OPTIONS} or an executable jar's {@code Add-Exports}/{@code Add-Opens}/
 * {@code Enable-Native-Access} manifest attributes count. Stateless; any thread.
 */
public final class JvmFlags
{
    /** Agrona's {@code UnsafeBuffer}: every engine. */
    public static final String MISC = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    /** Chronicle Queue's memory mapping. */
    public static final String NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    /** Chronicle Queue's reflection. */
    public static final String REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    /** Chronicle Queue's cleaner. */
    public static final String REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    /** JDK 24+: Chronicle's native libraries (jffi) load without a warning. */
    public static final String NATIVE = "--enable-native-access=ALL-UNNAMED";
    /** JDK 24+: Chronicle's {@code sun.misc.Unsafe} memory access without a warning (JDK 17 rejects this flag). */
    public static final String UNSAFE = "--sun-misc-unsafe-memory-access=allow";

    /** The JDK from which {@value #NATIVE} and {@value #UNSAFE} are needed. */
    static final int WARNING_JDK = 24;

    private JvmFlags()
    {
    }

    /**
     * @param persistent true for an engine with a Chronicle Queue revision log.
     * @return every flag that use needs on the running JDK, in command-line form.
     */
    public static List<String> required(final boolean persistent)
    {
        final List<String> flags = new ArrayList<>();
        flags.add(MISC);
        if (persistent)
        {
            flags.add(NIO);
            flags.add(REFLECT);
            flags.add(REF);
            if (Runtime.version().feature() >= WARNING_JDK)
            {
                flags.add(NATIVE);
                flags.add(UNSAFE);
            }
        }
        return flags;
    }

    /**
     * @param persistent true for an engine with a Chronicle Queue revision log.
     * @return the flags of {@link #required(boolean)} the running JVM lacks; empty when none.
     */
    public static List<String> missing(final boolean persistent)
    {
        final List<String> missing = new ArrayList<>();
        for (final String flag : required(persistent))
        {
            if (!isPresent(flag))
            {
                missing.add(flag);
            }
        }
        return missing;
    }

    /**
     * @param persistent true for an engine with a Chronicle Queue revision log.
     * @throws MissingJvmFlagsException naming the absent flags and every flag needed, if any is absent.
     */
    public static void check(final boolean persistent)
    {
        final List<String> missing = missing(persistent);
        if (!missing.isEmpty())
        {
            throw new MissingJvmFlagsException(persistent ? "a persistent engine" : "an in-memory engine",
                missing, required(persistent));
        }
    }

    private static boolean isPresent(final String flag)
    {
        final Module base = Object.class.getModule();
        final Module self = JvmFlags.class.getModule();
        switch (flag)
        {
            case MISC:
                return base.isExported("jdk.internal.misc", self);
            case NIO:
                return base.isExported("sun.nio.ch", self);
            case REFLECT:
                return base.isOpen("java.lang.reflect", self);
            case REF:
                return base.isExported("jdk.internal.ref", self);
            case NATIVE:
                return isNativeAccessEnabled(self);
            case UNSAFE:
                // The JVM records the option as this system property (JDK 23+).
                return "allow".equals(System.getProperty("sun.misc.unsafe.memory.access"));
            default:
                throw new IllegalArgumentException(flag);
        }
    }

    private static boolean isNativeAccessEnabled(final Module module)
    {
        try
        {
            // Module.isNativeAccessEnabled() is JDK 22+; this code is compiled for 17.
            final Method method = Module.class.getMethod("isNativeAccessEnabled");
            return (Boolean)method.invoke(module);
        }
        catch (final ReflectiveOperationException e)
        {
            return true;
        }
    }
}
