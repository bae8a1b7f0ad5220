#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* PG_DIAG_* are character macros ('C', 'M', ...) that Swift does not import;
   re-exported as constants so the wrapper can ask for the SQLSTATE by name. */
static const int CLIBPQ_DIAG_SQLSTATE = PG_DIAG_SQLSTATE;
static const int CLIBPQ_DIAG_MESSAGE_PRIMARY = PG_DIAG_MESSAGE_PRIMARY;
static const int CLIBPQ_DIAG_MESSAGE_DETAIL = PG_DIAG_MESSAGE_DETAIL;
static const int CLIBPQ_DIAG_CONSTRAINT_NAME = PG_DIAG_CONSTRAINT_NAME;
#endif
