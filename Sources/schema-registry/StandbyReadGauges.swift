import RegistryAPI
import RegistryPostgres

/// The standby-read figures `/metrics` shows (`StandbyReads`): reads a standby may answer, by
/// who answered them, and why the primary did, since start. None without standby reads.
enum StandbyReadGauges {
    static func read(_ pool: ConnectionPool) -> [Gauge] {
        guard let figures = pool.standbyReads?.figures else { return [] }
        let served = "Reads a standby may answer (versions, latest, lists, the type index, search), by the server that answered (this process, since start)."
        let skipped = "Reads a standby may answer that the primary answered instead of the standby, by reason (this process, since start)."
        return [
            Gauge("registry_db_standby_eligible_reads_total", served, labels: ["served_by": "standby"], value: Double(figures.servedByStandby), type: "counter"),
            Gauge("registry_db_standby_eligible_reads_total", served, labels: ["served_by": "primary"], value: Double(figures.servedByPrimary), type: "counter"),
        ]
            + figures.skippedByReason.map { reason, count in
                Gauge("registry_db_standby_skipped_reads_total", skipped, labels: ["reason": reason], value: Double(count), type: "counter")
            }
    }
}
