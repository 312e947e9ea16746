// libpq, PostgreSQL's C client library. pkg-config (libpq.pc from Debian's libpq-dev) adds
// -I/usr/include/postgresql, where libpq-fe.h lives.
#include <libpq-fe.h>

// PG_DIAG_* are character-literal macros, which Swift does not import: expose them as constants.
static const int cloner_pq_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int cloner_pq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int cloner_pq_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
static const int cloner_pq_diag_message_hint = PG_DIAG_MESSAGE_HINT;
static const int cloner_pq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
static const int cloner_pq_diag_table_name = PG_DIAG_TABLE_NAME;
static const int cloner_pq_diag_column_name = PG_DIAG_COLUMN_NAME;
static const int cloner_pq_diag_severity_nonlocalized = PG_DIAG_SEVERITY_NONLOCALIZED;
