package io.ringwatch.engine;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.MissingJvmFlagsException;
import io.ringwatch.engine.spi.Persistence;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM flags an engine needs, and the check {@link RingWatch#open(RingWatchConfig)} makes that
 * they are present. Every engine needs {@value #MISC}, for Agrona's {@code UnsafeBuffer}; a
 * persistent one also needs what its {@link Persistence#requiredJvmFlags()} names (the Chronicle
 * Queue log's are in {@code io.ringwatch.persistence.ChronicleJvmFlags}), so the engine itself
 * knows nothing of the storage it is given.
 *
 * <p>A flag is checked by asking the JVM, not by reading the command line, so flags given through
 * {@code JDK_JAVA_OPTIONS} or an executable jar's {@code Add-Exports}/{@code Add-Opens}/
 * {@code Enable-Native-Access} manifest attributes count. The forms understood are
 * {@code --add-exports=java.base/<package>=ALL-UNNAMED}, {@code --add-opens=java.base/<package>=ALL-UNNAMED},
 * {@value #NATIVE} and {@value #UNSAFE}. Stateless; any thread; allocates the lists it returns.
 */
public final class JvmFlags
{
    /** Agrona's {@code UnsafeBuffer}: every engine. */
    public static final String MISC = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    /** JDK 22+: native code may be called from the class path without a warning. */
    public static final String NATIVE = "--enable-native-access=ALL-UNNAMED";
    /** JDK 23+: {@code sun.misc.Unsafe} memory access without a warning (JDK 17 rejects this flag). */
    public static final String UNSAFE = "--sun-misc-unsafe-memory-access=allow";

    private static final String EXPORTS = "--add-exports=java.base/";
    private static final String OPENS = "--add-opens=java.base/";
    private static final String TO_CLASS_PATH = "=ALL-UNNAMED";

    private JvmFlags()
    {
    }

    /**
     * @param persistence the engine's persistence; null for an in-memory engine.
     * @return every flag that engine needs on the running JDK, in command-line form: {@value #MISC}
     *         first, then the persistence's own.
     */
    public static List<String> required(final Persistence persistence)
    {
        final List<String> flags = new ArrayList<>();
        flags.add(MISC);
        if (persistence != null)
        {
            for (final String flag : persistence.requiredJvmFlags())
            {
                if (!flags.contains(flag))
                {
                    flags.add(flag);
                }
            }
        }
        return flags;
    }

    /**
     * @param flags flags in command-line form.
     * @return those the running JVM lacks, in the same order; empty when none.
     * @throws InvalidRequestException for a flag of a form this class cannot check.
     */
    public static List<String> missing(final List<String> flags)
    {
        final List<String> missing = new ArrayList<>();
        for (final String flag : flags)
        {
            if (!isPresent(flag))
            {
                missing.add(flag);
            }
        }
        return missing;
    }

    /**
     * @param persistence the engine's persistence; null for an in-memory engine.
     * @throws MissingJvmFlagsException naming the absent flags and every flag needed, if any is absent.
     * @throws InvalidRequestException  if the persistence names a flag of a form this class cannot check.
     */
    public static void check(final Persistence persistence)
    {
        final List<String> required = required(persistence);
        final List<String> missing = missing(required);
        if (!missing.isEmpty())
        {
            throw new MissingJvmFlagsException(persistence == null ? "an in-memory engine" : "a persistent engine",
                missing, required);
        }
    }

    private static boolean isPresent(final String flag)
    {
        final Module base = Object.class.getModule();
        final Module self = JvmFlags.class.getModule();
        if (flag.startsWith(EXPORTS) && flag.endsWith(TO_CLASS_PATH))
        {
            return base.isExported(packageOf(flag, EXPORTS), self);
        }
        if (flag.startsWith(OPENS) && flag.endsWith(TO_CLASS_PATH))
        {
            return base.isOpen(packageOf(flag, OPENS), self);
        }
        if (NATIVE.equals(flag))
        {
            return isNativeAccessEnabled(self);
        }
        if (UNSAFE.equals(flag))
        {
            // The JVM records the option as this system property (JDK 23+).
            return "allow".equals(System.getProperty("sun.misc.unsafe.memory.access"));
        }
        throw new InvalidRequestException("not a JVM flag this check understands: " + flag);
    }

    private static String packageOf(final String flag, final String prefix)
    {
        return flag.substring(prefix.length(), flag.length() - TO_CLASS_PATH.length());
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
