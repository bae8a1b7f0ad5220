/// A loop is the executor of the requests its connections start: a request's task prefers it
/// (`Task.immediate(executorPreference:)`), so what follows each wait of the task (a database
/// read the loop drives, a handler thread's work, a parked request's wake) runs on the loop
/// that owns the connection and its sessions, one job at a time, in the order resumed.
extension EventLoop: TaskExecutor, SerialExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = execute { [self] in
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
        // A stopped loop runs nothing more: the job runs here, so no task is left suspended.
        if !accepted { job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor()) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
