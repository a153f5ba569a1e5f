package io.ringwatch.server.rpc;

import io.ringwatch.server.api.etcdserverpb.Member;
import io.ringwatch.server.api.etcdserverpb.ResponseHeader;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Who answers: the one member of a single-member cluster, as etcd describes itself in every
 * response header (cluster_id, member_id, revision, raft_term) and in its member list.
 * Immutable and thread-safe; {@link #header(long)} allocates one header.
 *
 * <p>etcd derives its ids by hashing its peer URLs and cluster token; this server hashes its name
 * and advertised client URLs, so a restarted server with the same flags keeps its ids.
 */
public final class MemberIdentity
{
    /** A single member that never held an election stays in its first term. */
    public static final long RAFT_TERM = 1;

    private final String name;
    private final List<String> clientUrls;
    private final long memberId;
    private final long clusterId;
    /** Whether headers carry the revision only (the answers inside a transaction). */
    private final boolean revisionOnly;
    private final MemberIdentity insideTxn;

    /**
     * @param name       the member's name (etcd's --name).
     * @param clientUrls the URLs clients reach it at (etcd's --advertise-client-urls).
     */
    public MemberIdentity(final String name, final List<String> clientUrls)
    {
        this.name = Objects.requireNonNull(name, "name");
        this.clientUrls = List.copyOf(clientUrls);
        memberId = nonZero(fnv1a(name + "|" + String.join(",", clientUrls)));
        clusterId = nonZero(fnv1a("ringwatch-cluster|" + memberId));
        revisionOnly = false;
        insideTxn = new MemberIdentity(this);
    }

    private MemberIdentity(final MemberIdentity outer)
    {
        name = outer.name;
        clientUrls = outer.clientUrls;
        memberId = outer.memberId;
        clusterId = outer.clusterId;
        revisionOnly = true;
        insideTxn = this;
    }

    /**
     * etcd fills only the revision of the answers inside a transaction (its applier makes each
     * with an empty header and sets the revision; the server fills the transaction's own header).
     *
     * @return this member as it heads those answers: {@link #header(long)} sets the revision only.
     */
    public MemberIdentity insideTxn()
    {
        return insideTxn;
    }

    /**
     * @return the member's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the member id, never 0.
     */
    public long memberId()
    {
        return memberId;
    }

    /**
     * @return the cluster id, never 0.
     */
    public long clusterId()
    {
        return clusterId;
    }

    /**
     * @return the advertised client URLs.
     */
    public List<String> clientUrls()
    {
        return clientUrls;
    }

    /**
     * @param revision the store revision the response reflects.
     * @return a response header as a single-member etcd fills it (the revision only for
     *         {@link #insideTxn()}).
     */
    public ResponseHeader header(final long revision)
    {
        if (revisionOnly)
        {
            return ResponseHeader.newBuilder().setRevision(revision).build();
        }
        return ResponseHeader.newBuilder()
            .setClusterId(clusterId)
            .setMemberId(memberId)
            .setRevision(revision)
            .setRaftTerm(RAFT_TERM)
            .build();
    }

    /**
     * @return this member as etcd's member list shows it (no peer URLs: there are no peers).
     */
    public Member member()
    {
        return Member.newBuilder()
            .setID(memberId)
            .setName(name)
            .addAllClientURLs(clientUrls)
            .build();
    }

    private static long fnv1a(final String text)
    {
        long hash = 0xcbf29ce484222325L;
        for (final byte b : text.getBytes(StandardCharsets.UTF_8))
        {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    private static long nonZero(final long id)
    {
        return id == 0 ? 1 : id;
    }
}
