package io.ringwatch.engine.architecture;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of a folder of compiled classes uses which, read from each class file's constant
 * pool (the classes and descriptors the JVM links), so a type that only javadoc mentions is no
 * dependency, as for jdeps. Test code: allocates freely, one thread.
 */
final class PackageGraph
{
    private static final Pattern REFERENCE = Pattern.compile("io/ringwatch/(?:engine|informer)[\\w/$]*/[\\w$]+");

    private final Map<String, Set<String>> edges = new TreeMap<>();
    private final Set<String> classes = new TreeSet<>();

    private PackageGraph()
    {
    }

    /**
     * @param classesRoot a folder of compiled classes (the engine's target/classes).
     * @return the graph of the io.ringwatch.engine and io.ringwatch.informer packages in it.
     * @throws IOException if a class file cannot be read.
     */
    static PackageGraph of(final Path classesRoot) throws IOException
    {
        final PackageGraph graph = new PackageGraph();
        try (Stream<Path> files = Files.walk(classesRoot))
        {
            for (final Path file : (Iterable<Path>)files.filter(f -> f.toString().endsWith(".class"))::iterator)
            {
                final String name = classesRoot.relativize(file).toString().replace('\\', '/').replaceAll("\\.class$", "");
                if (!REFERENCE.matcher(name).matches() || name.endsWith("package-info"))
                {
                    continue;
                }
                graph.classes.add(name.replace('/', '.'));
                final String from = packageOf(name);
                final Set<String> to = graph.edges.computeIfAbsent(from, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file))
                {
                    for (final String text : utf8Constants(in))
                    {
                        final Matcher m = REFERENCE.matcher(text);
                        while (m.find())
                        {
                            final String target = packageOf(m.group());
                            if (!target.equals(from))
                            {
                                to.add(target);
                            }
                        }
                    }
                }
            }
        }
        return graph;
    }

    /**
     * Every class under {@code classesRoot}, whatever its package, that links a class of one of
     * {@code packages} (each in internal form with a trailing slash, as {@code net/openhft/}).
     *
     * @param classesRoot a folder of compiled classes.
     * @param packages    the package prefixes no class may use.
     * @return class name to the prefixes it uses; empty when none does.
     * @throws IOException if a class file cannot be read.
     */
    static Map<String, Set<String>> classesUsing(final Path classesRoot, final List<String> packages) throws IOException
    {
        final Map<String, Set<String>> users = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classesRoot))
        {
            for (final Path file : (Iterable<Path>)files.filter(f -> f.toString().endsWith(".class"))::iterator)
            {
                try (InputStream in = Files.newInputStream(file))
                {
                    for (final String text : utf8Constants(in))
                    {
                        packages.stream().filter(text::contains).forEach(p ->
                            users.computeIfAbsent(classesRoot.relativize(file).toString(), k -> new TreeSet<>()).add(p));
                    }
                }
            }
        }
        return users;
    }

    /**
     * @param edges package to the packages it uses.
     * @return a graph of exactly these edges (to test the cycle search itself).
     */
    static PackageGraph of(final Map<String, Set<String>> edges)
    {
        final PackageGraph graph = new PackageGraph();
        edges.forEach((from, to) -> graph.edges.put(from, new TreeSet<>(to)));
        return graph;
    }

    /**
     * @return package to the packages its classes use, in dotted form.
     */
    Map<String, Set<String>> edges()
    {
        return edges;
    }

    /**
     * @return the binary names of the classes read.
     */
    Set<String> classes()
    {
        return classes;
    }

    /**
     * The strongly connected components of more than one package (Tarjan's algorithm): each is a
     * set of packages that all reach each other, so empty means no cycle.
     *
     * @return the cycles, each as its sorted packages.
     */
    List<Set<String>> cycles()
    {
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> low = new HashMap<>();
        final Deque<String> stack = new ArrayDeque<>();
        final List<Set<String>> result = new ArrayList<>();
        final Set<String> nodes = new TreeSet<>(edges.keySet());
        edges.values().forEach(nodes::addAll);
        for (final String node : nodes)
        {
            if (!index.containsKey(node))
            {
                connect(node, index, low, stack, result);
            }
        }
        return result;
    }

    private void connect(
        final String node, final Map<String, Integer> index, final Map<String, Integer> low,
        final Deque<String> stack, final List<Set<String>> result)
    {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        for (final String next : edges.getOrDefault(node, Set.of()))
        {
            if (!index.containsKey(next))
            {
                connect(next, index, low, stack, result);
                low.put(node, Math.min(low.get(node), low.get(next)));
            }
            else if (stack.contains(next))
            {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node)))
        {
            final Set<String> component = new TreeSet<>();
            String member;
            do
            {
                member = stack.pop();
                component.add(member);
            }
            while (!member.equals(node));
            if (component.size() > 1)
            {
                result.add(component);
            }
        }
    }

    private static String packageOf(final String internalName)
    {
        return internalName.substring(0, internalName.lastIndexOf('/')).replace('/', '.');
    }

    private static List<String> utf8Constants(final InputStream raw) throws IOException
    {
        final DataInputStream in = new DataInputStream(raw);
        if (in.readInt() != 0xCAFEBABE)
        {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        final int count = in.readUnsignedShort();
        final List<String> texts = new ArrayList<>();
        for (int i = 1; i < count; i++)
        {
            final int tag = in.readUnsignedByte();
            switch (tag)
            {
                case 1 -> texts.add(in.readUTF());
                case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                case 15 -> in.skipBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                case 5, 6 ->
                {
                    in.skipBytes(8);
                    i++; // a long or double takes two constant-pool slots
                }
                default -> throw new IOException("unknown constant-pool tag " + tag);
            }
        }
        return texts;
    }
}
