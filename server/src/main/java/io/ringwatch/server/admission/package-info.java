/**
 * Write admission: the server stops taking writes while the watch streams whose clients read fall
 * too far behind, so that their watches lag instead of falling out of the engine's watch window
 * and being cancelled. {@link io.ringwatch.server.admission.AdmissionMarks} is the rule (two marks,
 * hysteresis), {@link io.ringwatch.server.admission.WriteAdmission} measures the backlog of the
 * reading streams and applies the rule, {@link io.ringwatch.server.admission.WriteGate} holds and
 * releases the write calls through gRPC's flow control. Depends on nothing else of the server.
 */
package io.ringwatch.server.admission;
