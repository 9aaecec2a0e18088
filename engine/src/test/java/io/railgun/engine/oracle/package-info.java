/**
 * The exactness oracle and its random case generators, shared by every test that checks replies
 * against SPEC §5 (LocalStream today; the node end-to-end and the bench later, through the
 * engine's test-jar).
 *
 * <ul>
 *   <li>{@link io.railgun.engine.oracle.OracleStream}: a brute-force reference stream — tasks per
 *       (partitioner, partition), dedup horizon, lateness and late-event policy, windows, and every
 *       aggregate recomputed from the window's events on each reply ({@link
 *       io.railgun.engine.oracle.ExactAggregates}, exact BigDecimal arithmetic), with its own SQL
 *       interpreter ({@link io.railgun.engine.oracle.SqlInterpreter}) over its own syntax tree
 *       ({@link io.railgun.engine.oracle.SqlExpr}); statement text can be brought in through the
 *       engine's parser ({@link io.railgun.engine.oracle.OracleSql}).
 *   <li>{@link io.railgun.engine.oracle.PaymentCaseGenerator}: seeded random payment streams,
 *       statements and event sequences ({@link io.railgun.engine.oracle.StreamCase}).
 *   <li>{@link io.railgun.engine.oracle.ExactnessRunner}: runs a case through any
 *       {@link io.railgun.engine.oracle.EngineUnderTest} and the oracle side by side;
 *       {@link io.railgun.engine.oracle.Tolerance} judges doubles;
 *       {@link io.railgun.engine.oracle.CaseMinimizer} shrinks a failing case and
 *       {@link io.railgun.engine.oracle.CaseDump} prints it; {@link io.railgun.engine.oracle.Coverage}
 *       counts what was compared.
 * </ul>
 *
 * Everything here is single-threaded test code; nothing is on a hot path.
 */
package io.railgun.engine.oracle;
