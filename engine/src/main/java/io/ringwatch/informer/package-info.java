/**
 * Kubernetes-style informers over an engine (client-go's SharedIndexInformer): a local cache of a
 * selection of keys kept current by list-then-watch, with change handlers, indexers and a blocking
 * wait for the first sync. Built only on the engine's public API.
 */
package io.ringwatch.informer;
