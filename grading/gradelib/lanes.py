"""The lanes of a class run: how the machine's cores are shared between them, and the order
in which they are built and handed students.

A lane is a build directory that graded students go through one after another. Lanes side
by side must not cost a student more than grading the students one at a time: together
they build with the cores one grade.py alone would (as many build jobs as cores), never that
much per lane. Runs are another matter: one student's runs at a time hold the GPU (a turn,
gpu_share.py), so a student's turn gets the runs side by side one grade.py alone would have
(half the cores), whatever the number of lanes. Lane 0 is built first with every
core and starts grading as soon as it is ready; the other lanes are built one after another
while it grades, each joining when it is built, so that the first students' rows come
early and a run cut short still has them.
"""
import queue
import threading


def lane_jobs(cores, lanes):
    """(build jobs, runs side by side) of each of @p lanes grading side by side on @p cores:
    the cores divided between the lanes' builds; half the cores for the runs of the one
    student whose turn it is on the GPU."""
    build_jobs = max(1, cores // lanes)
    test_jobs = max(1, cores // 2)
    return build_jobs, test_jobs


def grade_in_lanes(folders, lanes, prebuild, grade, on_graded):
    """Grades @p folders (in their order) in @p lanes.

    @param prebuild  prebuild(lane, index, nothing_left) -> bool: builds a lane's course
                     tree; lane 0's runs first, alone; the others one after another while
                     lane 0 grades. nothing_left (a threading.Event) is set once every
                     student has a lane: a build still running then is of no use and may stop
                     (return False); a lane is not built at all when no student is left
    @param grade     grade(folder, lane) -> result; must not raise (a broken student is a
                     result, not an exception)
    @param on_graded on_graded(result), called after each student, one call at a time (to
                     rewrite the class table)
    @return the results in the order of @p folders, or None when lane 0 does not build. A
            later lane that does not build is left out; the others grade its share.
    """
    nothing_left = threading.Event()
    if not lanes or not prebuild(lanes[0], 0, nothing_left):
        return None
    todo = queue.Queue()
    for folder in folders:
        todo.put(folder)
    results, lock = {}, threading.Lock()

    def work(lane):
        while True:
            try:
                folder = todo.get_nowait()
            except queue.Empty:
                nothing_left.set()
                return
            if todo.empty():
                nothing_left.set()
            result = grade(folder, lane)
            with lock:
                results[folder] = result
                on_graded(result)

    def build_the_other_lanes():
        workers = []
        for index, lane in enumerate(lanes[1:], start=1):
            if nothing_left.is_set():
                break
            if prebuild(lane, index, nothing_left):
                worker = threading.Thread(target=work, args=(lane,))
                worker.start()
                workers.append(worker)
        for worker in workers:
            worker.join()

    first = threading.Thread(target=work, args=(lanes[0],))
    builder = threading.Thread(target=build_the_other_lanes)
    first.start()
    builder.start()
    first.join()
    builder.join()
    return [results[folder] for folder in folders if folder in results]
