package io.ringwatch.engine.architecture;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.internal.index.IndexEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's public surface as a specification (ARCHITECTURE.md, "Package map"): its packages
 * form no cycle; an API package other than the facade's uses no internal package; an API type
 * names no internal type in a public or protected signature (none is excepted); every internal
 * package says it is outside the compatibility promise; no class of the engine uses Chronicle or the persistence
 * module (an in-memory user must not need them: persistence comes in through
 * {@code io.ringwatch.engine.spi}). Reads the compiled classes, as jdeps does.
 */
class EngineArchitectureTest
{
    private static final String FACADE = "io.ringwatch.engine";
    private static final String INTERNAL = "io.ringwatch.engine.internal";

    /** What the engine jar must never link: Chronicle (and its jars' packages) and the log built on it. */
    private static final List<String> STORAGE_PACKAGES = List.of("net/openhft/", "io/ringwatch/persistence/");

    private static PackageGraph engine;

    @BeforeAll
    static void readTheCompiledEngine() throws IOException, URISyntaxException
    {
        engine = PackageGraph.of(classesRoot());
        assertTrue(engine.classes().contains(RingWatch.class.getName()), "read the engine's classes");
    }

    @Test
    void enginePackagesFormNoCycle()
    {
        assertEquals(List.of(), engine.cycles(), "packages that reach each other");
    }

    @Test
    void noEngineClassUsesChronicleOrThePersistenceModule() throws IOException, URISyntaxException
    {
        assertEquals(Map.of(), PackageGraph.classesUsing(classesRoot(), STORAGE_PACKAGES));
    }

    @Test
    void theStorageCheckFindsTheClassesThatLinkAPackage() throws IOException, URISyntaxException
    {
        final Map<String, Set<String>> users = PackageGraph.classesUsing(classesRoot(), List.of("io/ringwatch/engine/spi/"));
        assertTrue(users.keySet().stream().anyMatch(c -> c.contains("RingWatch")), "the facade uses the SPI: " + users);
    }

    @Test
    void theCycleSearchFindsACycleThroughThreePackages()
    {
        final PackageGraph graph = PackageGraph.of(Map.of(
            "a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"), "d", Set.of()));

        assertEquals(List.of(Set.of("a", "b", "c")), graph.cycles());
    }

    @Test
    void apiPackagesOtherThanTheFacadeUseNoInternalPackage()
    {
        final List<String> violations = new ArrayList<>();
        engine.edges().forEach((from, to) ->
        {
            if (!isInternal(from) && !from.equals(FACADE))
            {
                to.stream().filter(EngineArchitectureTest::isInternal).forEach(t -> violations.add(from + " -> " + t));
            }
        });
        assertEquals(List.of(), violations);
    }

    @Test
    void apiTypesNameNoInternalTypeInTheirPublicSignatures() throws ClassNotFoundException
    {
        final Set<String> leaks = new TreeSet<>();
        for (final String name : engine.classes())
        {
            final Class<?> type = Class.forName(name, false, getClass().getClassLoader());
            if (!isInternal(type.getPackageName()) && isVisible(type))
            {
                leaks.addAll(leaksOf(type));
            }
        }
        assertEquals(Set.of(), leaks, "API signatures that name internal types");
    }

    @Test
    void theSignatureCheckSeesAnInternalTypeInAParameter()
    {
        assertEquals(Set.of(Leaky.class.getName() + ".read names " + IndexEntry.class.getName()), leaksOf(Leaky.class));
    }

    /** A public signature that names an internal type, as the facade's {@code get} once did. */
    public static final class Leaky
    {
        /** @param entry an internal holder. */
        public void read(final IndexEntry entry)
        {
        }
    }

    @Test
    void everyInternalPackageSaysItIsOutsideTheCompatibilityPromise() throws IOException
    {
        final Path sources = Path.of("src", "main", "java");
        final List<String> silent = new ArrayList<>();
        for (final String pkg : engine.edges().keySet())
        {
            if (isInternal(pkg))
            {
                final Path info = sources.resolve(pkg.replace('.', '/')).resolve("package-info.java");
                if (!Files.exists(info) ||
                    !Files.readString(info, StandardCharsets.UTF_8).contains("not part of RingWatch's compatibility promise"))
                {
                    silent.add(pkg);
                }
            }
        }
        assertEquals(List.of(), silent);
    }

    private static Set<String> leaksOf(final Class<?> type)
    {
        final Set<String> leaks = new TreeSet<>();
        final String owner = type.getName();
        check(owner, "extends", type.getGenericSuperclass(), leaks);
        for (final Type t : type.getGenericInterfaces())
        {
            check(owner, "implements", t, leaks);
        }
        for (final Field field : type.getDeclaredFields())
        {
            if (isVisible(field))
            {
                check(owner, field.getName(), field.getGenericType(), leaks);
            }
        }
        final List<Executable> executables = new ArrayList<>(List.of(type.getDeclaredMethods()));
        executables.addAll(List.<Constructor<?>>of(type.getDeclaredConstructors()));
        for (final Executable e : executables)
        {
            if (!isVisible(e) || e.isSynthetic() || e instanceof Method && ((Method)e).isBridge())
            {
                continue;
            }
            final String member = e instanceof Constructor ? "<init>" : e.getName();
            if (e instanceof Method)
            {
                check(owner, member, ((Method)e).getGenericReturnType(), leaks);
            }
            for (final Type t : e.getGenericParameterTypes())
            {
                check(owner, member, t, leaks);
            }
            for (final Type t : e.getGenericExceptionTypes())
            {
                check(owner, member, t, leaks);
            }
        }
        return leaks;
    }

    private static void check(final String owner, final String member, final Type type, final Set<String> leaks)
    {
        if (type instanceof Class<?> c)
        {
            final Class<?> element = c.isArray() ? c.getComponentType() : c;
            if (isInternal(element.getPackageName()))
            {
                leaks.add(owner + "." + member + " names " + element.getName());
            }
        }
        else if (type instanceof ParameterizedType p)
        {
            check(owner, member, p.getRawType(), leaks);
            for (final Type argument : p.getActualTypeArguments())
            {
                check(owner, member, argument, leaks);
            }
        }
        else if (type instanceof GenericArrayType a)
        {
            check(owner, member, a.getGenericComponentType(), leaks);
        }
        else if (type instanceof WildcardType w)
        {
            for (final Type bound : w.getUpperBounds())
            {
                check(owner, member, bound, leaks);
            }
            for (final Type bound : w.getLowerBounds())
            {
                check(owner, member, bound, leaks);
            }
        }
        else if (type instanceof TypeVariable<?> v)
        {
            for (final Type bound : v.getBounds())
            {
                check(owner, member, bound, leaks);
            }
        }
    }

    private static boolean isVisible(final Class<?> type)
    {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass())
        {
            if (!Modifier.isPublic(c.getModifiers()))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean isVisible(final Member member)
    {
        return Modifier.isPublic(member.getModifiers()) || Modifier.isProtected(member.getModifiers());
    }

    private static boolean isInternal(final String pkg)
    {
        return pkg.equals(INTERNAL) || pkg.startsWith(INTERNAL + ".");
    }

    private static Path classesRoot() throws URISyntaxException
    {
        return Path.of(RingWatch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
