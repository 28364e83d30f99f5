export const GameMode = {
    TRUMPF: 'TRUMPF',
    OBEABE: 'OBEABE',
    UNDEUFE: 'UNDEUFE',
    SCHIEBE: 'SCHIEBE'
};