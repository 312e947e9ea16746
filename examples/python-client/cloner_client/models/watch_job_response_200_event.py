from enum import StrEnum


class WatchJobResponse200Event(StrEnum):
    CANCELLED = "cancelled"
    FAILED = "failed"
    PROGRESS = "progress"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
