export const SessionType = {
    SINGLE_GAME: 'SINGLE_GAME',
    TOURNAMENT: 'TOURNAMENT'
};